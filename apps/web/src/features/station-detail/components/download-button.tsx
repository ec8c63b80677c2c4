import { DownloadOutlined } from '@ant-design/icons';
import type { Period } from '@ipp/contracts';
import { App, Button, Flex, Progress, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/api-error';
import type { DownloadProgress } from '@/api/download-file';
import { downloadBlob } from '@/lib/download';
import { formatFileSize } from '@/lib/format';
import { exportSiteData } from '../api/export-site-data';
import { exportFilename, progressPercent } from '../utils/export';

/** Downloads the period's data as CSV with a progress bar (and Cancel); failures are toasted by the client. */
export function DownloadButton({ devId, period }: { devId: string; period: Period }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ loaded: 0, total: null });
    try {
      const file = await exportSiteData(devId, period, { onProgress: setProgress, signal: abort.signal });
      downloadBlob(file.filename ?? exportFilename(devId, period), file.blob);
      void message.success(t('detail.downloaded'));
    } catch (error) {
      if (isApiError(error) && error.kind === 'aborted') void message.info(t('detail.downloadCancelled'));
    } finally {
      controller.current = null;
      setProgress(null);
    }
  };

  if (!progress) {
    return (
      <Button icon={<DownloadOutlined />} onClick={() => void start()} data-testid="detail-download">
        {t('detail.download')}
      </Button>
    );
  }
  const percent = progressPercent(progress);
  return (
    <Flex align="center" gap="small" data-testid="detail-download-progress" data-loaded={progress.loaded}>
      <Progress
        percent={percent ?? 0}
        status="active"
        showInfo={percent !== null}
        size="small"
        style={{ width: 160, margin: 0 }}
        aria-label={t('detail.downloading')}
      />
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
        {t('detail.downloadedSize', { size: formatFileSize(progress.loaded) })}
      </Typography.Text>
      <Button size="small" onClick={() => controller.current?.abort()} data-testid="detail-download-cancel">
        {t('common.cancel')}
      </Button>
    </Flex>
  );
}
