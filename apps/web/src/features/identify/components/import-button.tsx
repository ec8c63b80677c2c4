import { InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { IMPORT_LISTED_MAX, IMPORT_ROWS_MAX, type ImportReport } from '@ipp/contracts';
import { App, Button, Form, InputNumber, Modal, Progress, Radio, Select, Typography, Upload, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/lib/format';
import {
  IMPORT_ZIP_MAX,
  importPercent,
  newProgressId,
  useImportProgress,
  useImportZip,
  type ImportFormat,
} from '../api/import-zip';

interface Station {
  id: number;
  dev_id: string;
  site_name: string;
}

/**
 * Administrators: import into a station a zip of one folder of images per class (human-identified images), or an
 * EcoTaxa export (its labels as it says: validated, predicted, dubious); a progress bar follows the upload and the
 * import.
 */
export function ImportButton({ stations, defaultDevId }: { stations: readonly Station[]; defaultDevId?: string }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [open, setOpen] = useState(false);
  const [devId, setDevId] = useState<string | undefined>(undefined);
  const [as, setAs] = useState<'hi' | 'reference'>('hi');
  const [format, setFormat] = useState<ImportFormat>('folders');
  const [pixelSize, setPixelSize] = useState<number | null>(null);
  const [progressId, setProgressId] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useImportZip();
  const progress = useImportProgress(progressId, upload.isPending);
  const station = devId ?? defaultDevId;

  const close = () => {
    setOpen(false);
    setFile(null);
    setError(null);
  };

  const report = (r: ImportReport) =>
    modal.info({
      title: t('identify.import.done', { station: r.station }),
      width: 560,
      content: (
        <div data-testid="identify-import-report" data-imported={r.imported}>
          {r.ecotaxa && (
            <Typography.Paragraph data-testid="identify-import-ecotaxa">
              {t('identify.import.ecotaxaSummary', r.ecotaxa)}
              {r.ecotaxa.people_unmatched.length > 0 && (
                <>
                  <br />
                  <Typography.Text type="warning">
                    {t('identify.import.peopleUnmatched', { people: r.ecotaxa.people_unmatched.join(', ') })}
                  </Typography.Text>
                </>
              )}
            </Typography.Paragraph>
          )}
          <Typography.Paragraph>
            {t(r.ecotaxa ? 'identify.import.summaryEcotaxa' : 'identify.import.summary', {
              imported: r.imported,
              duplicates: r.duplicates,
              failed: r.failed_total,
              classes: r.classes.length,
            })}
          </Typography.Paragraph>
          {r.capture_times && (
            <Typography.Paragraph type="secondary" data-testid="identify-import-times">
              {t('identify.import.captureTimes', {
                table: r.capture_times.labels_csv,
                name: r.capture_times.file_name,
                file: r.capture_times.file_time,
              })}
            </Typography.Paragraph>
          )}
          <ul style={{ maxHeight: 240, overflow: 'auto', paddingInlineStart: 18 }}>
            {r.classes.map((c) => (
              <li key={c.folder}>
                {c.folder} → {c.class}
                {c.created ? ` (${t('identify.import.newClass')})` : ''}: {c.images}
                {c.duplicates > 0 ? ` (${t('identify.import.classDuplicates', { count: c.duplicates })})` : ''}
              </li>
            ))}
          </ul>
          {r.conflicts.length > 0 && (
            <>
              <Typography.Text type="warning" strong data-testid="identify-import-conflicts" data-count={r.conflicts.length}>
                {t('identify.import.conflicts', { count: r.conflicts_total })}
              </Typography.Text>
              <ul style={{ maxHeight: 160, overflow: 'auto', paddingInlineStart: 18 }}>
                {r.conflicts.map((c) => (
                  <li key={c.file}>
                    <Typography.Text type="warning">
                      {t('identify.import.conflict', { file: c.file, roi: c.roi_id, kept: c.kept, cls: c.class })}
                    </Typography.Text>
                  </li>
                ))}
              </ul>
            </>
          )}
          <ul style={{ maxHeight: 160, overflow: 'auto', paddingInlineStart: 18 }}>
            {r.failed.map((f) => (
              <li key={f.file}>
                <Typography.Text type="danger">
                  {f.file}: {f.reason}
                </Typography.Text>
              </li>
            ))}
          </ul>
          {(r.failed_total > r.failed.length || r.conflicts_total > r.conflicts.length) && (
            <Typography.Text type="secondary" data-testid="identify-import-unlisted">
              {t('identify.import.unlisted', { max: IMPORT_LISTED_MAX })}
            </Typography.Text>
          )}
        </div>
      ),
    });

  const submit = () => {
    if (!file || !station) {
      setError(t('identify.import.required'));
      return;
    }
    const id = newProgressId();
    setProgressId(id);
    upload.mutate(
      { file, devId: station, as, format, progressId: id, pixelSizeUm: pixelSize },
      {
        onSuccess: (r) => {
          close();
          report(r);
        },
      },
    );
  };

  return (
    <>
      <Button size="small" icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="identify-import">
        {t('identify.import.button')}
      </Button>
      <Modal
        open={open}
        title={t('identify.import.title')}
        okText={t('identify.import.start')}
        cancelText={t('common.cancel')}
        onOk={submit}
        onCancel={() => !upload.isPending && close()}
        confirmLoading={upload.isPending}
        okButtonProps={{ 'data-testid': 'identify-import-ok' } as ButtonProps}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item label={t('identify.import.format')}>
            <Radio.Group
              value={format}
              onChange={(e) => setFormat(e.target.value as ImportFormat)}
              data-testid="identify-import-format"
            >
              <Radio value="folders">{t('identify.import.formatFolders')}</Radio>
              <Radio value="ecotaxa">{t('identify.import.formatEcotaxa')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Typography.Paragraph type="secondary">
            {t(format === 'ecotaxa' ? 'identify.import.hintEcotaxa' : 'identify.import.hint', { max: IMPORT_ROWS_MAX })}
          </Typography.Paragraph>
          <Form.Item label={t('identify.import.station')} required>
            <Select
              value={station}
              onChange={setDevId}
              options={stations.map((s) => ({ value: s.dev_id, label: s.site_name ? `${s.dev_id} ${s.site_name}` : s.dev_id }))}
              data-testid="identify-import-station"
            />
          </Form.Item>
          <Form.Item label={t('identify.import.as')}>
            <Radio.Group value={as} onChange={(e) => setAs(e.target.value as 'hi' | 'reference')}>
              <Radio value="hi">{t(format === 'ecotaxa' ? 'identify.import.asLabelled' : 'identify.import.asHi')}</Radio>
              <Radio value="reference">
                {t(format === 'ecotaxa' ? 'identify.import.asLabelledReference' : 'identify.import.asReference')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item label={t('identify.import.pixelSize')} extra={t('identify.import.pixelSizeHint')}>
            <InputNumber
              value={pixelSize}
              onChange={(v) => setPixelSize(typeof v === 'number' ? v : null)}
              min={0.01}
              max={1000}
              step={0.1}
              suffix="µm"
              style={{ width: 160 }}
              aria-label={t('identify.import.pixelSize')}
              data-testid="identify-import-pixel-size"
            />
          </Form.Item>
          <Form.Item required validateStatus={error ? 'error' : undefined} help={error ?? undefined}>
            <Upload.Dragger
              accept=".zip,application/zip"
              maxCount={1}
              fileList={file ? [{ uid: '1', name: `${file.name} (${formatFileSize(file.size)})`, status: 'done' }] : []}
              beforeUpload={(chosen) => {
                if (chosen.size > IMPORT_ZIP_MAX)
                  setError(t('identify.import.tooLarge', { max: formatFileSize(IMPORT_ZIP_MAX) }));
                else {
                  setFile(chosen);
                  setError(null);
                }
                return false;
              }}
              onRemove={() => setFile(null)}
              data-testid="identify-import-file"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p>{t('identify.import.drop')}</p>
            </Upload.Dragger>
          </Form.Item>
        </Form>
        {upload.isPending && (
          <div data-testid="identify-import-progress" data-phase={progress.data?.phase ?? 'upload'}>
            <Progress percent={importPercent(progress.data)} status="active" />
            <Typography.Text type="secondary">
              {progress.data?.phase === 'import'
                ? t('identify.import.phaseImport', { done: progress.data.done, total: progress.data.total })
                : progress.data?.phase === 'unpack'
                  ? t('identify.import.phaseUnpack')
                  : t('identify.import.phaseUpload', {
                      done: formatFileSize(progress.data?.done ?? 0),
                      total: formatFileSize(progress.data?.total || (file?.size ?? 0)),
                    })}
            </Typography.Text>
          </div>
        )}
      </Modal>
    </>
  );
}
