import { IPP_CONFIG_KEYS, type Ipp, type IppApplyConfigResult, type IppConfigKey } from '@ipp/contracts';
import { Alert, Button, Checkbox, Flex, Modal, Select, Table, Tag, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { useApplyConfig } from '../api/apply-config';
import { configValueText } from '../utils/config-fields';

interface ApplyConfigModalProps {
  /** The instruments to change. */
  targets: readonly Ipp[];
  onClose: () => void;
}

const stationLabel = (ipp: Pick<Ipp, 'site_name' | 'dev_id'>) =>
  ipp.site_name ? `${ipp.site_name} (${ipp.dev_id})` : ipp.dev_id;

/**
 * "Apply settings to several" (issue 23): take some settings of one instrument and set them on the chosen ones in one
 * step. Each instrument that changes gets a new configuration version and shows pending until its device applies it.
 */
export function ApplyConfigModal({ targets, onClose }: ApplyConfigModalProps) {
  const { t } = useTranslation();
  const sources = useIpps({ limit: ALL_IPPS_LIMIT });
  const apply = useApplyConfig();
  const [sourceId, setSourceId] = useState<number | null>(targets.length === 1 ? null : (targets[0]?.id ?? null));
  const [keys, setKeys] = useState<IppConfigKey[]>([...IPP_CONFIG_KEYS]);
  const [result, setResult] = useState<IppApplyConfigResult | null>(null);
  const source = sources.data?.items.find((ipp) => ipp.id === sourceId) ?? targets.find((ipp) => ipp.id === sourceId);
  const unit = (key: string) => t(key);

  const submit = () => {
    if (!source || keys.length === 0) return;
    const config = Object.fromEntries(keys.map((key) => [key, source.config[key]]));
    apply.mutate({ ids: targets.map((ipp) => ipp.id), config }, { onSuccess: setResult });
  };

  if (result) {
    return (
      <Modal
        open
        title={t('ipps.apply.doneTitle')}
        onCancel={onClose}
        footer={
          <Button type="primary" onClick={onClose} data-testid="ipp-apply-close">
            {t('ipps.apply.close')}
          </Button>
        }
        width={640}
      >
        <Flex vertical gap="middle" data-testid="ipp-apply-result">
          <Typography.Text type="secondary">{t('ipps.apply.doneHint')}</Typography.Text>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={result.rows}
            columns={[
              { title: t('ipps.site'), key: 'site', render: (_, row) => stationLabel(row) },
              {
                title: t('ipps.apply.outcome'),
                key: 'outcome',
                width: 260,
                render: (_, row) =>
                  row.changed ? (
                    <Tag color="processing" data-testid={`ipp-apply-outcome-${row.dev_id}`} data-changed="true">
                      {t('ipps.apply.newVersion', { version: row.config_version })}
                    </Tag>
                  ) : (
                    <Tag data-testid={`ipp-apply-outcome-${row.dev_id}`} data-changed="false">
                      {t('ipps.apply.unchanged')}
                    </Tag>
                  ),
              },
            ]}
          />
        </Flex>
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={t('ipps.apply.title', { count: targets.length })}
      onCancel={onClose}
      onOk={submit}
      okText={t('ipps.apply.ok', { count: targets.length })}
      okButtonProps={{ disabled: !source || keys.length === 0, 'data-testid': 'ipp-apply-ok' } as ButtonProps}
      confirmLoading={apply.isPending}
      width={720}
    >
      <Flex vertical gap="middle">
        <Typography.Text>
          {t('ipps.apply.targets')}: {targets.map(stationLabel).join(t('common.listSeparator'))}
        </Typography.Text>
        <Flex vertical gap={4}>
          <Typography.Text strong>{t('ipps.apply.source')}</Typography.Text>
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('ipps.apply.sourcePlaceholder')}
            loading={sources.isPending}
            value={sourceId ?? undefined}
            onChange={setSourceId}
            options={(sources.data?.items ?? targets).map((ipp) => ({ value: ipp.id, label: stationLabel(ipp) }))}
            data-testid="ipp-apply-source"
          />
        </Flex>
        {source ? (
          <Flex vertical gap={4}>
            <Flex justify="space-between" align="center">
              <Typography.Text strong>{t('ipps.apply.settings')}</Typography.Text>
              <Checkbox
                checked={keys.length === IPP_CONFIG_KEYS.length}
                indeterminate={keys.length > 0 && keys.length < IPP_CONFIG_KEYS.length}
                onChange={(e) => setKeys(e.target.checked ? [...IPP_CONFIG_KEYS] : [])}
              >
                {t('ipps.apply.all')}
              </Checkbox>
            </Flex>
            <Checkbox.Group<IppConfigKey>
              value={keys}
              onChange={setKeys}
              style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 6 }}
              options={IPP_CONFIG_KEYS.map((key) => ({
                value: key,
                label: `${t(`ipps.config.${key}`)}: ${configValueText(key, source.config[key], unit)}`,
              }))}
              data-testid="ipp-apply-keys"
            />
          </Flex>
        ) : (
          <Alert type="info" showIcon title={t('ipps.apply.pickSource')} />
        )}
      </Flex>
    </Modal>
  );
}
