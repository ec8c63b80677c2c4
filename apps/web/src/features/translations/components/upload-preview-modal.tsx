import type { TranslationUploadResult } from '@ipp/contracts';
import { Alert, Flex, Modal, Table, Typography, type ButtonProps, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';

type Added = TranslationUploadResult['added'][number];
type Changed = TranslationUploadResult['changed'][number];

interface UploadPreviewModalProps {
  fileName: string;
  result: TranslationUploadResult;
  applying: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

function Change({ before, after }: { before: string | null; after: string | null }) {
  const { t } = useTranslation();
  if (before === after) return <Typography.Text type="secondary">{after ?? '—'}</Typography.Text>;
  return (
    <Flex vertical>
      <Typography.Text delete type="secondary">
        {before ?? t('translations.none')}
      </Typography.Text>
      <Typography.Text>{after ?? t('translations.removed')}</Typography.Text>
    </Flex>
  );
}

/** What an uploaded file would change (dry run), applied only on Confirm. */
export function UploadPreviewModal({ fileName, result, applying, onConfirm, onCancel }: UploadPreviewModalProps) {
  const { t } = useTranslation();
  const nothing = result.added.length === 0 && result.changed.length === 0;

  const addedColumns: TableColumnsType<Added> = [
    { title: t('translations.key'), dataIndex: 'key', render: (key: string) => <Typography.Text code>{key}</Typography.Text> },
    { title: t('lang.zh'), dataIndex: 'zh', render: (text: string | null) => text ?? '—' },
    { title: t('lang.en'), dataIndex: 'en', render: (text: string | null) => text ?? '—' },
  ];
  const changedColumns: TableColumnsType<Changed> = [
    { title: t('translations.key'), dataIndex: 'key', render: (key: string) => <Typography.Text code>{key}</Typography.Text> },
    { title: t('lang.zh'), key: 'zh', render: (_, row) => <Change before={row.old_zh} after={row.zh} /> },
    { title: t('lang.en'), key: 'en', render: (_, row) => <Change before={row.old_en} after={row.en} /> },
  ];

  return (
    <Modal
      open
      width={880}
      title={t('translations.previewTitle', { file: fileName })}
      okText={t('translations.applyFile')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: nothing, loading: applying, 'data-testid': 'lang-preview-confirm' } as ButtonProps}
      onOk={onConfirm}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Flex vertical gap="middle" data-testid="lang-preview">
        <Alert
          type={nothing ? 'info' : 'warning'}
          showIcon
          title={t('translations.previewSummary', {
            added: result.added.length,
            changed: result.changed.length,
            unchanged: result.unchanged,
          })}
          description={nothing ? t('translations.previewNothing') : t('translations.previewHint')}
        />
        {result.added.length > 0 && (
          <>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('translations.added')}
            </Typography.Title>
            <Table<Added>
              rowKey="key"
              size="small"
              columns={addedColumns}
              dataSource={result.added}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
            />
          </>
        )}
        {result.changed.length > 0 && (
          <>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('translations.changed')}
            </Typography.Title>
            <Table<Changed>
              rowKey="key"
              size="small"
              columns={changedColumns}
              dataSource={result.changed}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
            />
          </>
        )}
      </Flex>
    </Modal>
  );
}
