import { MAX_ESCALATE_MINUTES, MAX_RULE_RECIPIENTS } from '@ipp/contracts';
import { Divider, Form, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTeamMembers } from '@/api/get-team-members';
import { useUserInfo } from '@/api/get-user-info';

/** The routing part of the rule form's values. */
export interface RoutingValues {
  notify_webhook: boolean;
  notify_user_ids: number[];
  escalate_minutes: number;
  escalate_user_ids: number[];
  escalate_webhook: boolean;
}

export const ROUTING_DEFAULTS: RoutingValues = {
  notify_webhook: true,
  notify_user_ids: [],
  escalate_minutes: 0,
  escalate_user_ids: [],
  escalate_webhook: false,
};

/** Who hears a rule's alarms and whom an unacknowledged one escalates to (issue 40), among the team's people. */
export function RoutingFields({ groupId }: { groupId: number | undefined }) {
  const { t } = useTranslation();
  const me = useUserInfo();
  const team = groupId ?? me.data?.group_id ?? undefined;
  const members = useTeamMembers(team, team !== undefined);
  const form = Form.useFormInstance<RoutingValues>();
  const escalates = (Form.useWatch('escalate_minutes', form) ?? 0) > 0;
  const people = (members.data ?? []).map((u) => ({ value: u.id, label: u.email ? `${u.name} (${u.email})` : u.name }));
  const peopleSelect = (testId: string, placeholder?: string) => (
    <Select
      mode="multiple"
      allowClear
      showSearch
      optionFilterProp="label"
      maxCount={MAX_RULE_RECIPIENTS}
      loading={members.isLoading}
      placeholder={placeholder}
      data-testid={testId}
      options={people}
    />
  );
  return (
    <>
      <Divider titlePlacement="start" plain>
        {t('alarms.routing.title')}
      </Divider>
      <Form.Item name="notify_webhook" label={t('alarms.routing.webhook')} valuePropName="checked">
        <Switch data-testid="alarm-rule-notify-webhook" />
      </Form.Item>
      <Form.Item name="notify_user_ids" label={t('alarms.routing.people')} extra={t('alarms.routing.peopleHint')}>
        {peopleSelect('alarm-rule-notify-people', t('alarms.routing.everyone'))}
      </Form.Item>
      <Form.Item name="escalate_minutes" label={t('alarms.routing.escalateAfter')} extra={t('alarms.routing.escalateHint')}>
        <InputNumber
          min={0}
          max={MAX_ESCALATE_MINUTES}
          precision={0}
          style={{ width: 200 }}
          data-testid="alarm-rule-escalate-minutes"
        />
      </Form.Item>
      {escalates && (
        <>
          <Form.Item
            name="escalate_user_ids"
            label={t('alarms.routing.escalateTo')}
            dependencies={['escalate_webhook']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, ids: number[] | undefined) =>
                  (ids?.length ?? 0) > 0 || getFieldValue('escalate_webhook')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('alarms.routing.escalateNobody'))),
              }),
            ]}
          >
            {peopleSelect('alarm-rule-escalate-people')}
          </Form.Item>
          <Form.Item name="escalate_webhook" label={t('alarms.routing.escalateWebhook')} valuePropName="checked">
            <Switch data-testid="alarm-rule-escalate-webhook" />
          </Form.Item>
        </>
      )}
    </>
  );
}
