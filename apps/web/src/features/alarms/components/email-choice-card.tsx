import { ALARM_EMAIL_CHOICES, type AlarmEmailChoice } from '@ipp/contracts';
import { Alert, Button, Card, Flex, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAlarmEmailSetting, useSaveAlarmEmailChoice, useTestEmail } from '../api/email-choice';

/** The signed-in user's own choice of alarm e-mails: none, every alarm of the team, or the followed stations'. */
export function EmailChoiceCard() {
  const { t } = useTranslation();
  const setting = useAlarmEmailSetting();
  const save = useSaveAlarmEmailChoice();
  const test = useTestEmail();
  const data = setting.data;
  return (
    <Card size="small" title={t('alarms.email.title')} loading={setting.isLoading} data-testid="alarm-email">
      <Flex vertical gap="small">
        {data && !data.available && <Alert type="info" showIcon title={t('alarms.email.unavailable')} />}
        {data?.available && !data.email && <Alert type="warning" showIcon title={t('alarms.email.noAddress')} />}
        <Radio.Group
          value={data?.alarm_email}
          disabled={!data?.available || save.isPending}
          onChange={(e) => save.mutate(e.target.value as AlarmEmailChoice)}
          options={ALARM_EMAIL_CHOICES.map((choice) => ({ value: choice, label: t(`alarms.email.${choice}`) }))}
          data-testid="alarm-email-choice"
        />
        {data?.email && (
          <Flex gap="middle" wrap align="center">
            <Typography.Text type="secondary">{t('alarms.email.address', { email: data.email })}</Typography.Text>
            {data.available && (
              <Button size="small" loading={test.isPending} onClick={() => test.mutate()} data-testid="alarm-email-test">
                {t('alarms.email.test')}
              </Button>
            )}
          </Flex>
        )}
        {test.data && (
          <Alert
            type={test.data.ok ? 'success' : 'error'}
            showIcon
            closable
            onClose={() => test.reset()}
            title={t(test.data.ok ? 'alarms.email.testOk' : 'alarms.email.testFailed', { email: data?.email ?? '' })}
            data-testid="alarm-email-test-result"
          />
        )}
      </Flex>
    </Card>
  );
}
