import { DownloadOutlined } from '@ant-design/icons';
import type { ExportBody, RoiListQuery } from '@ipp/contracts';
import { App, Button, Dropdown, Flex, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/api-error';
import type { DownloadProgress } from '@/api/download-file';
import { downloadBlob } from '@/lib/download';
import { formatFileSize } from '@/lib/format';
import { exportRois } from '../api/export-rois';

type Format = ExportBody['format'];

/**
 * Exports the selection, or everything the list shows when nothing is selected, as CSV or an EcoTaxa zip. The
 * server streams it; the button shows what has arrived and can cancel.
 */
export function ExportButton({ query, selectedIds }: { query: RoiListQuery | null; selectedIds: readonly number[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  const start = async (format: Format) => {
    if (!query) return;
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ loaded: 0, total: null });
    const { limit: _limit, page: _page, after: _after, ...listed } = query;
    const body: ExportBody = selectedIds.length > 0 ? { format, roi_ids: [...selectedIds] } : { format, query: listed };
    try {
      const file = await exportRois(body, { onProgress: setProgress, signal: abort.signal });
      downloadBlob(file.filename ?? (format === 'csv' ? 'rois.csv' : 'rois-ecotaxa.zip'), file.blob);
      void message.success(t('detail.downloaded'));
    } catch (error) {
      if (isApiError(error) && error.kind === 'aborted') void message.info(t('detail.downloadCancelled'));
    } finally {
      controller.current = null;
      setProgress(null);
    }
  };

  if (progress) {
    return (
      <Flex align="center" gap="small" data-testid="identify-export-progress" data-loaded={progress.loaded}>
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
          {t('detail.downloadedSize', { size: formatFileSize(progress.loaded) })}
        </Typography.Text>
        <Button size="small" onClick={() => controller.current?.abort()} data-testid="identify-export-cancel">
          {t('common.cancel')}
        </Button>
      </Flex>
    );
  }
  return (
    <Dropdown
      disabled={!query}
      trigger={['click']}
      menu={{
        items: [
          { key: 'csv', label: <span data-testid="identify-export-csv">{t('identify.export.csv')}</span> },
          { key: 'ecotaxa', label: <span data-testid="identify-export-ecotaxa">{t('identify.export.ecotaxa')}</span> },
        ],
        onClick: ({ key }) => void start(key as Format),
      }}
    >
      <Button size="small" icon={<DownloadOutlined />} data-testid="identify-export">
        {selectedIds.length > 0 ? t('identify.export.selection', { count: selectedIds.length }) : t('identify.export.all')}
      </Button>
    </Dropdown>
  );
}
