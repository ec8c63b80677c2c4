import { Flex, Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function PageLoading({ fullscreen = false }: { fullscreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <Flex align="center" justify="center" style={{ minHeight: fullscreen ? '100vh' : 240 }} aria-busy="true">
      <Spin description={t('common.loading')} size="large" />
    </Flex>
  );
}
