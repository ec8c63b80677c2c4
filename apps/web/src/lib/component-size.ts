import { STORAGE_KEYS } from './storage-keys';
import { readStorage, writeStorage } from './storage';

export const COMPONENT_SIZES = ['small', 'middle', 'large'] as const;
export type ComponentSize = (typeof COMPONENT_SIZES)[number];
export const DEFAULT_SIZE: ComponentSize = 'middle';

const listeners = new Set<() => void>();

function isSize(value: string | null): value is ComponentSize {
  return (COMPONENT_SIZES as readonly (string | null)[]).includes(value);
}

export function getComponentSize(): ComponentSize {
  const stored = readStorage(STORAGE_KEYS.size);
  return isSize(stored) ? stored : DEFAULT_SIZE;
}

export function setComponentSize(size: ComponentSize): void {
  writeStorage(STORAGE_KEYS.size, size);
  for (const listener of listeners) listener();
}

export function subscribeComponentSize(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
