import { CLASS_TITLE_PATTERN } from '@ipp/contracts';

export type ClassNameProblem = 'empty' | 'bad';

/**
 * Spec §5: three digits, then Chinese characters, letters, digits, '-' or '_'. Checked before sending so the
 * user learns at the field; the server applies the same rule (and whether the name is taken).
 */
export function checkClassName(title: string | undefined | null): ClassNameProblem | null {
  const value = (title ?? '').trim();
  if (value === '') return 'empty';
  return CLASS_TITLE_PATTERN.test(value) ? null : 'bad';
}
