import { MAX_MATCHING, type RoiListQuery } from '@ipp/contracts';
import { App, type ButtonProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getMatchingIds } from '../api/get-matching-ids';
import { selectMatching, type Selection } from '../utils/selection';

/**
 * "Select all matching" (issue 25): every ROI the current filter matches, not only the loaded pages, at most 10,000.
 * When that is more than what is shown, the user confirms first (an action then changes images they have not seen).
 */
export function useSelectMatching(query: RoiListQuery | null, loaded: number, onSelect: (selection: Selection) => void) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [busy, setBusy] = useState(false);
  // The list shown now: an answer (or a confirmation) for a list the user has since left is dropped.
  const shown = useRef(JSON.stringify(query));
  useEffect(() => {
    shown.current = JSON.stringify(query);
  });
  const run = async () => {
    if (!query || busy) return;
    const asked = JSON.stringify(query);
    const select = (ids: readonly number[]) => {
      if (shown.current === asked) onSelect(selectMatching(ids));
    };
    setBusy(true);
    try {
      const { ids, capped } = await getMatchingIds(query);
      if (shown.current !== asked) return;
      if (ids.length <= loaded && !capped) {
        select(ids);
        return;
      }
      modal.confirm({
        title: t('identify.matching.title'),
        content: capped
          ? t('identify.matching.capped', { max: MAX_MATCHING })
          : t('identify.matching.confirm', { count: ids.length }),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: { 'data-testid': 'confirm-ok' } as ButtonProps,
        onOk: () => select(ids),
      });
    } catch {
      // The API client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  return { run, busy };
}
