import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '@/lib/route-meta';

/** Stands in for screens that later issues build; it says so and offers nothing that looks usable. */
export function PendingPage({ meta }: PageProps) {
  const { t } = useTranslation();
  return <Result icon={<ToolOutlined />} title={t(meta.titleKey)} subTitle={t('pending.description')} data-testid="not-built" />;
}
