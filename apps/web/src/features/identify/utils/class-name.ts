import { CLASS_TITLE_PATTERN, type ClassItem } from '@ipp/contracts';

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

/**
 * A class as a picker offers it (HI target, re-identification, thresholds). A class the team hides from its users
 * reaches administrators only, with `visible: false`; they may still use it, so it is offered, marked "(hidden)".
 */
export function classOption(
  item: Pick<ClassItem, 'id' | 'title' | 'visible'>,
  t: (key: 'identify.classHiddenOption', options: { title: string }) => string,
): { value: number; label: string } {
  return { value: item.id, label: item.visible ? item.title : t('identify.classHiddenOption', { title: item.title }) };
}
