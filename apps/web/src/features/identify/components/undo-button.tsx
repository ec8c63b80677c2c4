import { UndoOutlined } from '@ant-design/icons';
import type { LastAction } from '@ipp/contracts';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTimeWithZone } from '@/lib/time-zones';
import { useActionLabel } from '../hooks/use-action-label';

/** "Undo: <action> (n)" while the caller's last bulk action can still be undone (Ctrl+Z or U). */
export function UndoButton({ action, busy, onUndo }: { action: LastAction | null; busy: boolean; onUndo: () => void }) {
  const { t } = useTranslation();
  const label = useActionLabel();
  if (!action) return null;
  return (
    <Tooltip title={t('identify.undo.hint', { time: formatTimeWithZone(action.expires_at) })}>
      <Button size="small" icon={<UndoOutlined />} loading={busy} onClick={onUndo} data-testid="identify-undo">
        {t('identify.undo.button', { action: label(action.code), count: action.affected })}
      </Button>
    </Tooltip>
  );
}
