import { LogoutOutlined } from '@ant-design/icons';
import { App, Button, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';

const confirmButtonProps = { 'data-testid': 'logout-confirm' } as ButtonProps;

export function LogoutButton() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const signOut = useSignOut();

  const confirm = () => {
    modal.confirm({
      title: t('header.exitConfirmTitle'),
      content: t('header.exitConfirmContent'),
      okText: t('header.exit'),
      cancelText: t('common.cancel'),
      okButtonProps: confirmButtonProps,
      onOk: () => signOut(),
    });
  };

  return (
    <Button icon={<LogoutOutlined />} onClick={confirm} data-testid="logout-button">
      {t('header.exit')}
    </Button>
  );
}
