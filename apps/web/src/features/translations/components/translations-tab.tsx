import { DownloadOutlined, ReloadOutlined, SaveOutlined, SearchOutlined, UploadOutlined } from '@ant-design/icons';
import { LANGS, type Lang, type TranslationUploadResult } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Flex, Input, Space, Table, Typography, type ButtonProps, type TableColumnsType } from 'antd';
import { useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { langOverridesQueryOptions } from '@/api/get-lang-overrides';
import { LoadFailed } from '@/components/load-failed';
import { BUNDLED_STRINGS } from '@/i18n/bundled';
import { downloadText } from '@/lib/download';
import { usePaging } from '@/hooks/use-paging';
import { PAGE_SIZE_OPTIONS } from '@/lib/paging';
import { useSaveTranslations } from '../api/save-translations';
import { TRANSLATION_FILE_ACCEPT, useUploadTranslations } from '../api/upload-translations';
import {
  buildRows,
  cellText,
  isEdited,
  matchesSearch,
  pendingItems,
  toCsv,
  toJson,
  type Drafts,
  type TranslationRow,
} from '../utils/translation-table';
import { UploadPreviewModal } from './upload-preview-modal';

const confirmButtonProps = { 'data-testid': 'confirm-ok' } as ButtonProps;

export function TranslationsTab({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const zh = useQuery(langOverridesQueryOptions('zh'));
  const en = useQuery(langOverridesQueryOptions('en'));
  const save = useSaveTranslations();
  const upload = useUploadTranslations();
  const fileInput = useRef<HTMLInputElement>(null);
  const [drafts, setDrafts] = useState<Drafts>(new Map());
  const [search, setSearch] = useState('');
  const paging = usePaging();
  const [preview, setPreview] = useState<{ file: File; result: TranslationUploadResult } | null>(null);

  const rows = useMemo(
    () => (zh.data && en.data ? buildRows(BUNDLED_STRINGS, { zh: zh.data, en: en.data }) : []),
    [zh.data, en.data],
  );
  const shown = rows.filter((row) => matchesSearch(row, drafts, search));
  const items = pendingItems(rows, drafts);

  const edit = (key: string, lang: Lang, text: string) => {
    const next = new Map(drafts);
    next.set(key, { ...next.get(key), [lang]: text });
    setDrafts(next);
  };

  const submit = () => {
    save.mutate(
      { items },
      {
        onSuccess: () => {
          setDrafts(new Map());
          void message.success(t('messages.saveSuccess'));
        },
      },
    );
  };

  const refresh = () => {
    const reload = async () => {
      setDrafts(new Map());
      await Promise.all([zh.refetch(), en.refetch()]);
    };
    if (items.length === 0) {
      void reload();
      return;
    }
    modal.confirm({
      title: t('translations.discardTitle'),
      content: t('translations.discardContent', { count: items.length }),
      okText: t('translations.update'),
      cancelText: t('common.cancel'),
      okButtonProps: confirmButtonProps,
      onOk: reload,
    });
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    // The client shows a refusal (a malformed file is a 1002 with the server's reason).
    upload.mutate({ file, dryRun: true }, { onSuccess: (result) => setPreview({ file, result }) });
  };

  const apply = () => {
    if (!preview) return;
    upload.mutate(
      { file: preview.file, dryRun: false },
      {
        onSuccess: () => {
          setPreview(null);
          void message.success(t('messages.operationSuccess'));
        },
      },
    );
  };

  const download = (format: 'json' | 'csv') => {
    if (format === 'json') downloadText('translations.json', toJson(rows, drafts), 'application/json');
    else downloadText('translations.csv', toCsv(rows, drafts), 'text/csv;charset=utf-8');
  };

  const textColumn = (lang: Lang) => ({
    title: t(`lang.${lang}`),
    key: lang,
    width: '38%',
    render: (_: unknown, row: TranslationRow) => (
      <Input.TextArea
        value={cellText(row, drafts, lang)}
        placeholder={row.bundled[lang] || t('translations.noBundled')}
        rows={2}
        readOnly={!canEdit}
        status={isEdited(row, drafts, lang) ? 'warning' : undefined}
        onChange={(event) => edit(row.key, lang, event.target.value)}
        aria-label={`${row.key} · ${t(`lang.${lang}`)}`}
        data-testid={`lang-cell-${row.key}-${lang}`}
      />
    ),
  });

  const columns: TableColumnsType<TranslationRow> = [
    {
      title: t('translations.key'),
      dataIndex: 'key',
      render: (key: string, row) => (
        <Flex vertical>
          <Typography.Text code style={{ wordBreak: 'break-all' }}>
            {key}
          </Typography.Text>
          {!row.bundled.zh && !row.bundled.en && <Typography.Text type="secondary">{t('translations.unused')}</Typography.Text>}
        </Flex>
      ),
    },
    ...LANGS.map(textColumn),
  ];

  if ((zh.isError || en.isError) && rows.length === 0) {
    return (
      <LoadFailed
        error={zh.error ?? en.error}
        onRetry={() => {
          void zh.refetch();
          void en.refetch();
        }}
      />
    );
  }

  return (
    <Flex vertical gap="middle">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('translations.hint')}
      </Typography.Paragraph>
      <Flex gap="small" wrap justify="space-between">
        <Input
          type="search"
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('translations.searchPlaceholder')}
          aria-label={t('translations.searchPlaceholder')}
          style={{ maxWidth: 360 }}
          onChange={(event) => {
            setSearch(event.target.value);
            paging.toFirst();
          }}
          data-testid="lang-search"
        />
        <Space wrap>
          {canEdit && (
            <Button
              type="primary"
              icon={<SaveOutlined />}
              disabled={items.length === 0}
              loading={save.isPending}
              onClick={submit}
              data-testid="lang-save"
            >
              {items.length > 0 ? t('translations.saveCount', { count: items.length }) : t('common.save')}
            </Button>
          )}
          <Button icon={<ReloadOutlined />} loading={zh.isFetching || en.isFetching} onClick={refresh} data-testid="lang-update">
            {t('translations.update')}
          </Button>
          {canEdit && (
            <>
              <input
                ref={fileInput}
                type="file"
                accept={TRANSLATION_FILE_ACCEPT}
                hidden
                onChange={onFile}
                aria-label={t('translations.upload')}
                data-testid="lang-upload"
              />
              <Button icon={<UploadOutlined />} loading={upload.isPending && !preview} onClick={() => fileInput.current?.click()}>
                {t('translations.upload')}
              </Button>
            </>
          )}
          <Space.Compact>
            <Button
              icon={<DownloadOutlined />}
              disabled={rows.length === 0}
              onClick={() => download('json')}
              data-testid="lang-download"
            >
              {t('translations.downloadJson')}
            </Button>
            <Button disabled={rows.length === 0} onClick={() => download('csv')} data-testid="lang-download-csv">
              CSV
            </Button>
          </Space.Compact>
        </Space>
      </Flex>
      <Table<TranslationRow>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={shown}
        loading={zh.isPending || en.isPending}
        pagination={{
          current: paging.page,
          pageSize: paging.limit,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS,
          showTotal: (total) => t('common.total', { count: total }),
          onChange: paging.change,
        }}
      />
      {preview && (
        <UploadPreviewModal
          fileName={preview.file.name}
          result={preview.result}
          applying={upload.isPending}
          onConfirm={apply}
          onCancel={() => setPreview(null)}
        />
      )}
    </Flex>
  );
}
