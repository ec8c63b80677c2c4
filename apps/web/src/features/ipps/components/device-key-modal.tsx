import { CopyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface DeviceKeyModalProps {
  devId: string;
  deviceKey: string;
  onClose: () => void;
}

/**
 * The device key, shown once (the server keeps only its hash). The modal closes only through its
 * button, so a stray click or Escape cannot lose the key before it is written down.
 */
export function DeviceKeyModal({ devId, deviceKey, onClose }: DeviceKeyModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(deviceKey);
      void message.success(t('ipps.copied'));
    } catch {
      void message.error(t('ipps.copyFailed'));
    }
  };

  return (
    <Modal
      open
      title={t('ipps.keyTitle', { devId })}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={
        <Flex justify="end" gap="small">
          <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="ipp-key-copy">
            {t('ipps.copy')}
          </Button>
          <Button type="primary" onClick={onClose} data-testid="ipp-key-close">
            {t('ipps.keyClose')}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap="middle">
        <Alert type="warning" showIcon title={t('ipps.keyWarning')} role="alert" />
        <Typography.Text code style={{ fontSize: 16, wordBreak: 'break-all' }} data-testid="ipp-device-key">
          {deviceKey}
        </Typography.Text>
      </Flex>
    </Modal>
  );
}
