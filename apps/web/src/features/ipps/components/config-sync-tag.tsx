import type { Ipp } from '@ipp/contracts';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** Whether the instrument runs its saved configuration: applied, some settings pending (named on hover), or unknown. */
export function ConfigSyncTag({ ipp }: { ipp: Pick<Ipp, 'dev_id' | 'applied_config' | 'pending' | 'config_version'> }) {
  const { t } = useTranslation();
  let tag;
  if (ipp.applied_config === null) tag = <Tag>{t('ipps.sync.unknown')}</Tag>;
  else if (ipp.pending.length === 0) tag = <Tag color="success">{t('ipps.sync.applied')}</Tag>;
  else tag = <Tag color="warning">{t('ipps.sync.pending', { count: ipp.pending.length })}</Tag>;
  const state = ipp.applied_config === null ? 'unknown' : ipp.pending.length === 0 ? 'applied' : 'pending';
  const hint =
    state === 'pending'
      ? ipp.pending.map((key) => t(`ipps.config.${key}`)).join(t('common.listSeparator'))
      : t(`ipps.sync.${state}Hint`);
  return (
    <Tooltip title={`v${ipp.config_version} · ${hint}`}>
      <span data-testid={`ipp-sync-${ipp.dev_id}`} data-state={state}>
        {tag}
      </span>
    </Tooltip>
  );
}
