import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { actionLabelKey } from '../utils/actions';

/** An action code's label; a code this build has no label for says so (spec §6). */
export function useActionLabel(): (code: string) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (code: string) => (i18n.exists(actionLabelKey(code)) ? t(actionLabelKey(code)) : t('identify.permissionNotConfigured')),
    [t, i18n],
  );
}
