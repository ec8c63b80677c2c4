import { Alert, Button, Card, Flex, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmAction } from '@/components/confirm-action';
import { useAlarmWebhook, useSaveAlarmWebhook, useTestWebhook } from '../api/webhook';
import { formatTimeWithZone } from '@/lib/time-zones';
import { webhookFailureText } from './alarm-text';

/**
 * The team's alarm webhook (administrators): where raised alarms are posted as signed JSON, the signing secret (shown
 * once when made), and whether deliveries get through.
 */
export function WebhookCard({ groupId }: { groupId?: number }) {
  const { t } = useTranslation();
  const webhook = useAlarmWebhook(true, groupId);
  const save = useSaveAlarmWebhook(groupId);
  const test = useTestWebhook(groupId);
  // What the administrator typed; null while the field shows the saved URL.
  const [draft, setDraft] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const current = webhook.data;
  const url = draft ?? current?.url ?? '';

  const submit = (body: { url: string | null; new_secret?: boolean }) =>
    save.mutate(body, {
      onSuccess: (result) => {
        setSecret(result.secret);
        setDraft(null);
      },
    });
  const last = current?.last_delivery;

  return (
    <Card size="small" title={t('alarms.webhook.title')} data-testid="alarm-webhook">
      <Flex vertical gap="small">
        <Typography.Text type="secondary">{t('alarms.webhook.hint')}</Typography.Text>
        <Space.Compact style={{ maxWidth: 720 }}>
          <Input
            value={url}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="https://example.org/ipp-alarms"
            maxLength={2000}
            aria-label={t('alarms.webhook.url')}
            data-testid="alarm-webhook-url"
          />
          <Button
            type="primary"
            loading={save.isPending}
            disabled={url.trim() === (current?.url ?? '')}
            onClick={() => submit({ url: url.trim() || null })}
            data-testid="alarm-webhook-save"
          >
            {t('common.save')}
          </Button>
        </Space.Compact>
        {secret && (
          <Alert
            type="success"
            showIcon
            closable
            onClose={() => setSecret(null)}
            title={t('alarms.webhook.secretOnce')}
            description={
              <Typography.Text copyable code data-testid="alarm-webhook-secret">
                {secret}
              </Typography.Text>
            }
          />
        )}
        {current?.url && (
          <Flex gap="middle" wrap align="center">
            <Typography.Text>
              {t('alarms.webhook.secret')}: <Typography.Text code>{current.secret_hint}</Typography.Text>
            </Typography.Text>
            <ConfirmAction
              title={t('alarms.webhook.rotateConfirm')}
              onConfirm={() => submit({ url: current.url, new_secret: true })}
            >
              <Button size="small">{t('alarms.webhook.rotate')}</Button>
            </ConfirmAction>
            <Button size="small" loading={test.isPending} onClick={() => test.mutate()} data-testid="alarm-webhook-test">
              {t('alarms.webhook.test')}
            </Button>
            <Typography.Text type={last && !last.ok ? 'danger' : 'secondary'} data-testid="alarm-webhook-status">
              {last
                ? last.ok
                  ? t('alarms.webhook.lastOk', { time: formatTimeWithZone(last.at) })
                  : t('alarms.webhook.lastFailed', {
                      time: formatTimeWithZone(last.at),
                      error: webhookFailureText(t, last.error),
                    })
                : t('alarms.webhook.noneYet')}
              {current.pending > 0 && ` · ${t('alarms.webhook.pending', { count: current.pending })}`}
              {current.failed > 0 && ` · ${t('alarms.webhook.failed', { count: current.failed })}`}
            </Typography.Text>
          </Flex>
        )}
        {test.data && (
          <Alert
            type={test.data.ok ? 'success' : 'error'}
            showIcon
            closable
            onClose={() => test.reset()}
            title={
              test.data.ok
                ? t('alarms.webhook.testOk')
                : t('alarms.webhook.testFailed', { error: webhookFailureText(t, test.data.error) })
            }
            data-testid="alarm-webhook-test-result"
          />
        )}
      </Flex>
    </Card>
  );
}
