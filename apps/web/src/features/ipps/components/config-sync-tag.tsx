import type { Ipp } from '@ipp/contracts';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { configSyncOf } from '../utils/telemetry';

const COLORS = { unknown: undefined, applied: 'success', pending: 'warning' } as const;

/** Whether the instrument runs its saved configuration: applied, some settings pending (named on hover), or unknown. */
export function ConfigSyncTag({ ipp }: { ipp: Pick<Ipp, 'dev_id' | 'applied_config' | 'pending' | 'config_version'> }) {
  const { t } = useTranslation();
  const state = configSyncOf(ipp);
  const hint =
    state === 'pending'
      ? ipp.pending.map((key) => t(`ipps.config.${key}`)).join(t('common.listSeparator'))
      : t(`ipps.sync.${state}Hint`);
  return (
    <Tooltip title={`v${ipp.config_version} · ${hint}`}>
      <span data-testid={`ipp-sync-${ipp.dev_id}`} data-state={state}>
        <Tag color={COLORS[state]}>{t(`ipps.sync.${state}`, { count: ipp.pending.length })}</Tag>
      </span>
    </Tooltip>
  );
}
