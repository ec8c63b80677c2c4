import { Avatar, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '@/api/get-user-info';
import { imageUrl } from '@/api/client';
import defaultAvatar from '@/assets/default-avatar.svg';

export function UserBadge() {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const avatar = user?.avatar ? imageUrl(user.avatar) : defaultAvatar;
  return (
    <Flex align="center" gap="small" aria-label={t('header.user')} data-testid="header-user">
      <Avatar src={avatar} alt="" />
      <Typography.Text strong ellipsis style={{ maxWidth: 160 }}>
        {user ? user.name || user.account : ''}
      </Typography.Text>
    </Flex>
  );
}
