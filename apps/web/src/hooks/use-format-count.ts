import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '@/lib/format';

/** formatCount (spec §9) with the unit of ten thousand in the interface language: "1.23 万" / "1.23 × 10⁴". */
export function useFormatCount(): (count: number) => string {
  const { t } = useTranslation();
  return useCallback((count: number) => formatCount(count, (value) => t('format.tenThousand', { value })), [t]);
}
