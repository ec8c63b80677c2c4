import { BookOutlined } from '@ant-design/icons';
import { Button, Flex, Popover, Progress, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReferenceClasses } from '../../api/query-reference';

/** "Which reference class is this like": the classes of its nearest ROIs in the team's reference library. */
export function ReferenceButton({ roiId, groupId }: { roiId: number; groupId?: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomLeft"
      title={t('identify.ai.referenceTitle')}
      content={open && <ReferenceClasses roiId={roiId} groupId={groupId} />}
      destroyOnHidden
    >
      <Button size="small" icon={<BookOutlined />} data-testid="ai-reference">
        {t('identify.ai.reference')}
      </Button>
    </Popover>
  );
}

function ReferenceClasses({ roiId, groupId }: { roiId: number; groupId?: number }) {
  const { t } = useTranslation();
  const answer = useReferenceClasses(roiId, groupId);
  const width = { width: 280 };
  if (answer.isPending) {
    return (
      <Flex justify="center" style={{ ...width, padding: 16 }}>
        <Spin size="small" data-testid="ai-reference-loading" />
      </Flex>
    );
  }
  if (answer.isError) {
    return (
      <Flex vertical gap={4} style={width} data-testid="ai-reference-failed">
        <Typography.Text type="secondary">{answer.error.message || t('common.loadFailed')}</Typography.Text>
        <Button size="small" onClick={() => void answer.refetch()}>
          {t('common.retry')}
        </Button>
      </Flex>
    );
  }
  const { classes, neighbours } = answer.data;
  if (classes.length === 0) {
    return (
      <Typography.Text type="secondary" style={{ display: 'block', ...width }} data-testid="ai-reference-empty">
        {t('identify.ai.referenceEmpty')}
      </Typography.Text>
    );
  }
  // Scores are weighted votes: shown as each class's share of them.
  const sum = classes.reduce((total, each) => total + each.score, 0) || 1;
  return (
    <Flex vertical gap={4} style={width} data-testid="ai-reference-classes">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('identify.ai.referenceHint', { count: neighbours.length })}
      </Typography.Text>
      {classes.map((each) => {
        const share = Math.round((each.score / sum) * 100);
        return (
          <Flex key={each.class_id} align="center" gap="small" data-testid={`ai-reference-${each.class_id}`}>
            <Typography.Text ellipsis style={{ width: '40%', fontSize: 12 }} title={each.class_name}>
              {each.class_name}
            </Typography.Text>
            <Progress percent={share} size="small" showInfo={false} style={{ flex: 1, margin: 0 }} />
            <Typography.Text style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {t('identify.ai.referenceScore', { percent: share, votes: each.votes })}
            </Typography.Text>
          </Flex>
        );
      })}
    </Flex>
  );
}
