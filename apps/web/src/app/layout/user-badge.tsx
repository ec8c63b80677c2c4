import { Flex } from 'antd';
import Avatar from 'antd/es/avatar/Avatar';
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
      {/* A CSS ellipsis rather than Typography, whose editing and copying would come with the shell. */}
      <strong className="user-badge__name">{user ? user.name || user.account : ''}</strong>
    </Flex>
  );
}
