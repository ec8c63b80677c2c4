import { InboxOutlined } from '@ant-design/icons';
import { Alert, Empty, Flex, Image, Progress, Spin, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/lib/format';
import { CLASSIFY_MAX, useClassifyUpload } from '../../api/classify-upload';
import { MeasuresList } from './measures-list';

/**
 * Try the team's active model on an image from the computer: its best three classes with their confidence and the
 * organism's morphology. Nothing is stored (POST /uploads).
 */
export function TryImageTab({ groupId }: { groupId?: number }) {
  const { t } = useTranslation();
  const classify = useClassifyUpload();
  const [preview, setPreview] = useState<string | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const answer = classify.data;

  return (
    <Flex vertical gap="middle" data-testid="try-image-tab">
      <Typography.Text type="secondary">{t('identify.tryImage.intro')}</Typography.Text>
      <div data-testid="try-image-file">
        <Upload.Dragger
          accept="image/png,image/jpeg,image/webp,image/tiff"
          maxCount={1}
          showUploadList={false}
          disabled={classify.isPending}
          beforeUpload={(file) => {
            setTooLarge(file.size > CLASSIFY_MAX);
            if (file.size <= CLASSIFY_MAX) {
              setPreview(URL.createObjectURL(file));
              classify.mutate({ file, groupId });
            }
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{t('identify.tryImage.drop')}</p>
        </Upload.Dragger>
      </div>
      {tooLarge && <Alert type="error" title={t('identify.tryImage.tooLarge', { max: formatFileSize(CLASSIFY_MAX) })} />}
      {classify.isPending && <Spin data-testid="try-image-busy" />}
      {classify.isError && <Alert type="error" title={classify.error.message} data-testid="try-image-failed" />}
      {answer && !classify.isPending && (
        <Flex gap="large" align="flex-start" wrap data-testid="try-image-answer">
          {preview && <Image src={preview} width={160} style={{ background: '#000', objectFit: 'contain' }} alt="" />}
          <Flex vertical gap="small" style={{ flex: 1, minWidth: 240 }}>
            {answer.model_id === null ? (
              <Alert type="info" title={t('identify.tryImage.noModel')} data-testid="try-image-no-model" />
            ) : answer.prediction.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              answer.prediction.map((score, i) => (
                <Flex key={score.class_id} vertical gap={0} data-testid={`try-image-class-${i}`} data-class={score.class_id}>
                  <Typography.Text strong={i === 0}>{score.class_name}</Typography.Text>
                  <Progress percent={Math.round(score.p * 100)} size="small" />
                </Flex>
              ))
            )}
            <MeasuresList measures={answer.measures} />
          </Flex>
        </Flex>
      )}
    </Flex>
  );
}
