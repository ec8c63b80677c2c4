import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Flex, Image, Progress, Typography } from 'antd';
import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { imageUrl } from '@/api/client';
import { LOGO_MAX_BYTES, LOGO_TYPES, useUploadLogo } from '../api/upload-logo';

export function LogoUpload({ logo, readOnly }: { logo: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const upload = useUploadLogo();

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be picked again after a failure.
    event.target.value = '';
    if (!file) return;
    if (!(LOGO_TYPES as readonly string[]).includes(file.type)) {
      void message.error(t('settings.logoType'));
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      void message.error(t('settings.logoSize'));
      return;
    }
    abort.current = new AbortController();
    upload.mutate({ file, signal: abort.current.signal }, { onSuccess: () => void message.success(t('messages.configSuccess')) });
  };

  return (
    <Flex vertical gap="middle" align="flex-start">
      {logo ? (
        <Image
          src={imageUrl(logo)}
          alt={t('settings.logo')}
          height={64}
          style={{ objectFit: 'contain' }}
          data-testid="logo-preview"
        />
      ) : (
        <Typography.Text type="secondary">{t('settings.noLogo')}</Typography.Text>
      )}
      <Typography.Text type="secondary">{t('settings.logoHint')}</Typography.Text>
      {!readOnly && (
        <>
          <input
            ref={input}
            type="file"
            accept={LOGO_TYPES.join(',')}
            hidden
            onChange={onFile}
            aria-label={t('settings.uploadLogo')}
            data-testid="logo-upload"
          />
          {upload.isPending ? (
            <Flex vertical gap="small" style={{ width: 280 }} role="status" aria-live="polite">
              {/* fetch reports no upload progress, so the bar runs until the server answers. */}
              <Progress percent={100} status="active" showInfo={false} />
              <Flex justify="space-between" align="center">
                <Typography.Text>{t('settings.uploading')}</Typography.Text>
                <Button size="small" onClick={() => abort.current?.abort()}>
                  {t('common.cancel')}
                </Button>
              </Flex>
            </Flex>
          ) : (
            <Button icon={<UploadOutlined />} onClick={() => input.current?.click()}>
              {t('settings.uploadLogo')}
            </Button>
          )}
        </>
      )}
    </Flex>
  );
}
