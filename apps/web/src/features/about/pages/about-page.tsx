import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const CAPABILITY_KEYS = [
  'about.capabilityConfig',
  'about.capabilityImages',
  'about.capabilityClassify',
  'about.capabilityReview',
  'about.capabilityStats',
  'about.capabilityTeams',
] as const;

export function AboutPage() {
  const { t } = useTranslation();
  return (
    <Card>
      <Typography>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('about.title')}
        </Typography.Title>
        <Typography.Paragraph>{t('about.intro')}</Typography.Paragraph>
        <Typography.Title level={4}>{t('about.capabilitiesTitle')}</Typography.Title>
        <ul>
          {CAPABILITY_KEYS.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
        <Typography.Paragraph strong data-testid="about-processing">
          {t('about.processing')}
        </Typography.Paragraph>
      </Typography>
    </Card>
  );
}
