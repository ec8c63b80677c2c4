export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
export const BUDGET_KB: number;
export const SHELL_ROOTS: string[];
export const HEAVY: Record<string, string>;
export const AT_START: Record<string, string[]>;
export function staticClosure(manifest: Manifest, roots: string[]): Set<string>;
export function analyse(
  manifest: Manifest,
  sizeOf: (file: string) => number,
  budgetKb?: number,
): {
  total: number;
  files: { file: string; gzip: number }[];
  loaders: Record<string, string[]>;
  atStart: Record<string, number>;
  problems: string[];
};
