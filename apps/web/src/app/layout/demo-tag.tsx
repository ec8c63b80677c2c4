import { useTranslation } from 'react-i18next';
import { onDemand } from '@/components/on-demand';

const Tag = onDemand<{ text: string }>(
  () => import('./demo-tag-antd'),
  ({ text }) => <span data-testid="demo-tag">{text}</span>,
);

/** Marks a read-only demo session; antd's Tag is loaded only for one. */
export function DemoTag() {
  const { t } = useTranslation();
  return <Tag text={t('header.demo')} />;
}
