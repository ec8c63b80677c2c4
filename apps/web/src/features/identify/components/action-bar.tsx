import type { Action, Actions } from '@ipp/contracts';
import { Alert, Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useActionLabel } from '../hooks/use-action-label';
import { barActions } from '../utils/actions';

interface ActionBarProps {
  actions: readonly Action[];
  reason: Actions['reason'];
  selectedCount: number;
  /** Some selected ROI is AI-labelled: actions marked no_ai are not offered. */
  selectionHasAi: boolean;
  /** Demo images are selected in the team gallery: spec §6 gives them no action. */
  selectionLocked?: boolean;
  busy?: boolean;
  onRun: (action: Action) => void;
}

/** The bulk buttons of the current category and role, drawn from GET /roi/actions (docs/actions.md). */
export function ActionBar(props: ActionBarProps) {
  const { actions, reason, selectedCount, selectionHasAi, selectionLocked = false, busy = false, onRun } = props;
  const { t } = useTranslation();
  const label = useActionLabel();
  if (reason === 'example') {
    return <Alert type="info" showIcon title={t('identify.exampleReadOnly')} data-testid="identify-actions-example" />;
  }
  if (selectionLocked) {
    return (
      <Typography.Text type="secondary" data-testid="identify-actions-demo">
        {t('identify.demoImagesReadOnly')}
      </Typography.Text>
    );
  }
  const shown = barActions(actions, selectionHasAi);
  if (shown.length === 0) {
    // The detail pane may still offer single-ROI actions; the bar just has nothing for a selection.
    if (actions.length > 0) return null;
    return (
      <Typography.Text type="secondary" data-testid="identify-actions-none">
        {t('identify.noActions')}
      </Typography.Text>
    );
  }
  return (
    <Flex wrap gap="small" role="toolbar" aria-label={t('identify.actionsLabel')} data-testid="identify-actions">
      {shown.map((action) => (
        <Button
          key={action.code}
          size="small"
          danger={action.danger}
          disabled={selectedCount === 0 || busy}
          onClick={() => onRun(action)}
          data-testid={`action-${action.code}`}
        >
          {label(action.code)}
        </Button>
      ))}
    </Flex>
  );
}
