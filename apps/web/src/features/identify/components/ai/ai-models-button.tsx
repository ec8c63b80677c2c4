import { RobotOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JobsTab } from './jobs-tab';
import { ModelsTab } from './models-tab';
import { ThresholdsTab } from './thresholds-tab';
import { TryImageTab } from './try-image-tab';

interface AiModelsButtonProps {
  /** The team chosen in the team picker (superadmin); others manage their own team. */
  groupId?: number;
  /** A superadmin must pick a team first: models, thresholds and jobs belong to one. */
  needsTeam: boolean;
  readOnly: boolean;
}

/** The administrators' entry to AI recognition: models, confidence thresholds and jobs of the team, in a drawer. */
export function AiModelsButton({ groupId, needsTeam, readOnly }: AiModelsButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState('models');
  const tabs = [
    {
      key: 'models',
      label: <span data-testid="ai-tab-models">{t('identify.models.tab')}</span>,
      children: <ModelsTab groupId={groupId} readOnly={readOnly} />,
    },
    {
      key: 'thresholds',
      label: <span data-testid="ai-tab-thresholds">{t('identify.thresholds.tab')}</span>,
      children: <ThresholdsTab groupId={groupId} readOnly={readOnly} />,
    },
    { key: 'jobs', label: t('identify.jobs.tab'), children: <JobsTab groupId={groupId} readOnly={readOnly} /> },
    {
      key: 'try',
      label: <span data-testid="ai-tab-try">{t('identify.tryImage.tab')}</span>,
      children: <TryImageTab groupId={groupId} />,
    },
  ];
  return (
    <>
      <Button size="small" icon={<RobotOutlined />} onClick={() => setOpen(true)} data-testid="identify-ai-models">
        {t('identify.models.button')}
      </Button>
      {open && (
        <Drawer open title={t('identify.models.title')} size={1040} onClose={() => setOpen(false)} data-testid="ai-models-drawer">
          {needsTeam ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('identify.models.pickTeam')}
              data-testid="ai-models-pick-team"
            />
          ) : (
            <Tabs activeKey={tab} onChange={setTab} items={tabs} destroyOnHidden />
          )}
        </Drawer>
      )}
    </>
  );
}
