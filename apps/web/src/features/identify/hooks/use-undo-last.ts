import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLastAction, useUndo } from '../api/undo';

/**
 * The caller's last bulk action and its undo (issue 25): the server keeps it for 15 minutes; after an undo the
 * toast says how many images came back and how many had changed since and were left alone.
 */
export function useUndoLast(enabled: boolean) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const last = useLastAction(enabled);
  const undo = useUndo();
  const action = last.data ?? null;
  const run = async () => {
    if (!action || undo.isPending) return;
    try {
      const result = await undo.mutateAsync(action.bulk_id);
      void message.success(t('identify.undo.done', { count: result.restored, skipped: result.skipped }));
    } catch {
      // The API client has shown the server's message (nothing to undo any more).
      void last.refetch();
    }
  };
  return { action, run, busy: undo.isPending };
}
