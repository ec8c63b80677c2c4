import {
  ALARM_KINDS,
  ALARM_KIND_NEEDS,
  ALARM_SEVERITIES,
  clearLevelProblem,
  CONCENTRATION_WINDOW_MINUTES,
  DEFAULT_SEVERITY,
  limitDirection,
  MAX_FOR_MINUTES,
  NO_DATA_ACTIONS,
  RATE_WINDOW_MINUTES,
  SERIES_COMPARISON_NEEDS,
  seriesLimitProblem,
  type AlarmKind,
  type AlarmRule,
  type AlarmSeverity,
  type NoDataAction,
  type SeriesComparison,
  type TrendSeriesKey,
} from '@ipp/contracts';
import { Form, Input, InputNumber, Modal, Select, Switch, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useClasses } from '@/api/get-classes';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { useSaveAlarmRule } from '../api/alarm-rules';
import { ROUTING_DEFAULTS, RoutingFields, type RoutingValues } from './routing-fields';
import { SeriesFields, useSeriesUnit } from './series-fields';

interface RuleFormValues extends RoutingValues {
  name: string;
  kind: AlarmKind;
  threshold?: number | null;
  minutes?: number | null;
  class_id?: number | null;
  series?: TrendSeriesKey | null;
  comparison?: SeriesComparison | null;
  threshold_low?: number | null;
  ipp_id: number | null;
  enabled: boolean;
  renotify_minutes: number;
  severity: AlarmSeverity;
  for_minutes: number;
  clear_threshold?: number | null;
  no_data: NoDataAction;
}

/** The form's words for what the contract finds wrong with a clear level (the field is shown only where it applies). */
const CLEAR_LEVEL_MESSAGE = {
  'reason.noClearLevel': 'alarms.clearHint',
  'reason.clearAtMostLimit': 'alarms.clearAtMost',
  'reason.clearAtLeastLimit': 'alarms.clearAtLeast',
} as const;

/** The form's words for what the contract finds wrong with a band or a rate. */
const SERIES_LIMIT_MESSAGE = {
  'reason.bandOrder': 'alarms.bandOrder',
  'reason.positive': 'alarms.positive',
  'reason.rateWindow': 'alarms.rateWindow',
} as const;

const DEFAULTS: RuleFormValues = {
  name: '',
  kind: 'offline',
  minutes: 15,
  ipp_id: null,
  enabled: true,
  renotify_minutes: 60,
  severity: DEFAULT_SEVERITY.offline,
  for_minutes: 0,
  clear_threshold: null,
  no_data: 'keep',
  ...ROUTING_DEFAULTS,
};

/** A new alarm rule, or a change to one (a changed rule clears its open alarms and starts over). */
export function RuleFormModal({ rule, groupId, onClose }: { rule: AlarmRule | null; groupId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleFormValues>();
  const kind = Form.useWatch('kind', form) ?? rule?.kind ?? DEFAULTS.kind;
  const comparison = (Form.useWatch('comparison', form) ?? rule?.comparison ?? null) as SeriesComparison | null;
  const seriesRule = kind === 'series';
  const needs = [...ALARM_KIND_NEEDS[kind], ...(seriesRule && comparison ? SERIES_COMPARISON_NEEDS[comparison] : [])];
  const biology = kind === 'class_concentration';
  const rate = seriesRule && comparison === 'rate';
  const direction = limitDirection({ kind, comparison });
  const watchedSeries = (Form.useWatch('series', form) ?? rule?.series ?? null) as TrendSeriesKey | null;
  const seriesUnit = useSeriesUnit(seriesRule ? watchedSeries : null);
  const unit = seriesUnit ? ` (${seriesUnit})` : '';
  /** A validator of a series rule's band or rate, on the field the contract names. */
  const seriesLimit = (field: 'threshold' | 'threshold_low' | 'minutes') => ({
    validator: () => {
      const v = form.getFieldsValue(['comparison', 'threshold', 'threshold_low', 'minutes']) as RuleFormValues;
      const problem = seriesRule
        ? seriesLimitProblem({
            comparison: v.comparison ?? null,
            threshold: v.threshold ?? null,
            threshold_low: v.threshold_low ?? null,
            minutes: v.minutes ?? null,
          })
        : null;
      return problem?.field === field ? Promise.reject(new Error(t(SERIES_LIMIT_MESSAGE[problem.reason]))) : Promise.resolve();
    },
  });
  const team = rule?.group_id ?? groupId;
  const ipps = useIpps({ limit: ALL_IPPS_LIMIT, ...(team === undefined ? {} : { group_id: team }) });
  const classes = useClasses();
  const save = useSaveAlarmRule();

  const submit = (values: RuleFormValues) =>
    save.mutate(
      {
        ...(rule ? { id: rule.id } : groupId === undefined ? {} : { group_id: groupId }),
        name: values.name,
        kind: values.kind,
        threshold: needs.includes('threshold') ? (values.threshold ?? null) : null,
        minutes: needs.includes('minutes') ? (values.minutes ?? null) : null,
        class_id: needs.includes('class_id') ? (values.class_id ?? null) : null,
        series: seriesRule ? (values.series ?? null) : null,
        comparison: seriesRule ? (values.comparison ?? null) : null,
        threshold_low: needs.includes('threshold_low') ? (values.threshold_low ?? null) : null,
        ipp_id: values.ipp_id,
        enabled: values.enabled,
        renotify_minutes: values.renotify_minutes,
        severity: values.severity,
        for_minutes: values.for_minutes ?? 0,
        clear_threshold: direction ? (values.clear_threshold ?? null) : null,
        no_data: values.no_data,
        notify_webhook: values.notify_webhook,
        // Nobody named: everyone who chose alarm e-mail, as before routing.
        notify_user_ids: values.notify_user_ids?.length ? values.notify_user_ids : null,
        escalate_minutes: values.escalate_minutes ?? 0,
        escalate_user_ids: (values.escalate_minutes ?? 0) > 0 ? (values.escalate_user_ids ?? []) : [],
        escalate_webhook: (values.escalate_minutes ?? 0) > 0 && values.escalate_webhook,
      },
      { onSuccess: onClose },
    );

  return (
    <Modal
      open
      title={rule ? t('alarms.editRule') : t('alarms.addRule')}
      okText={t('common.save')}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'alarm-rule-submit' } as ButtonProps}
    >
      <Form<RuleFormValues>
        form={form}
        layout="vertical"
        initialValues={rule ? { ...rule, notify_user_ids: rule.notify_user_ids ?? [] } : DEFAULTS}
        onFinish={submit}
        onValuesChange={(changed: Partial<RuleFormValues>) => {
          // A concentration window is at least an hour: a shorter duration of another kind becomes one hour.
          const minutes = form.getFieldValue('minutes') as number | null | undefined;
          if (changed.kind === 'class_concentration' && (minutes ?? 0) < CONCENTRATION_WINDOW_MINUTES.min)
            form.setFieldValue('minutes', CONCENTRATION_WINDOW_MINUTES.min);
          // A new rule takes the weight of what it watches until someone picks one.
          if (changed.kind && !rule && !form.isFieldTouched('severity'))
            form.setFieldValue('severity', DEFAULT_SEVERITY[changed.kind]);
        }}
        requiredMark
      >
        <Form.Item name="name" label={t('alarms.ruleName')} rules={[{ required: true, whitespace: true, max: 64 }]}>
          <Input maxLength={64} data-testid="alarm-rule-name" />
        </Form.Item>
        <Form.Item name="kind" label={t('alarms.kindLabel')} rules={[{ required: true }]}>
          <Select data-testid="alarm-rule-kind" options={ALARM_KINDS.map((k) => ({ value: k, label: t(`alarms.kind.${k}`) }))} />
        </Form.Item>
        <Form.Item name="severity" label={t('alarms.severity.label')} rules={[{ required: true }]}>
          <Select
            data-testid="alarm-rule-severity"
            options={ALARM_SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severity.${s}`) }))}
          />
        </Form.Item>
        {needs.includes('class_id') && (
          <Form.Item
            name="class_id"
            label={t('alarms.classLabel')}
            rules={[{ required: true, message: t('alarms.classRequired') }]}
          >
            <Select
              showSearch
              optionFilterProp="label"
              loading={classes.isLoading}
              data-testid="alarm-rule-class"
              options={(classes.data ?? []).map((c) => ({ value: c.id, label: c.title }))}
            />
          </Form.Item>
        )}
        {seriesRule && <SeriesFields />}
        {needs.includes('threshold_low') && (
          <Form.Item
            name="threshold_low"
            label={t('alarms.bandLowLabel', { unit })}
            dependencies={['threshold']}
            rules={[{ required: true, message: t('alarms.limitRequired') }, seriesLimit('threshold_low')]}
          >
            <InputNumber min={-1000} max={1_000_000} style={{ width: 200 }} data-testid="alarm-rule-threshold-low" />
          </Form.Item>
        )}
        {needs.includes('threshold') && (
          <Form.Item
            name="threshold"
            label={
              seriesRule ? t(`alarms.seriesLimitLabel.${comparison ?? 'above'}`, { unit }) : t(`alarms.thresholdLabel.${kind}`)
            }
            rules={[{ required: true, message: t('alarms.limitRequired') }, seriesLimit('threshold')]}
          >
            <InputNumber min={biology ? 0 : -1000} max={1_000_000} style={{ width: 200 }} data-testid="alarm-rule-threshold" />
          </Form.Item>
        )}
        {direction && (
          <Form.Item
            name="clear_threshold"
            label={t(`alarms.clearLabel.${direction}`)}
            extra={t('alarms.clearHint')}
            dependencies={['threshold']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, value: number | null | undefined) => {
                  const limit = (getFieldValue('threshold') as number | null | undefined) ?? null;
                  const problem = clearLevelProblem({ kind, comparison, threshold: limit, clear_threshold: value ?? null });
                  return problem ? Promise.reject(new Error(t(CLEAR_LEVEL_MESSAGE[problem]))) : Promise.resolve();
                },
              }),
            ]}
          >
            <InputNumber min={biology ? 0 : -1000} max={1_000_000} style={{ width: 200 }} data-testid="alarm-rule-clear" />
          </Form.Item>
        )}
        {needs.includes('minutes') && (
          <Form.Item
            name="minutes"
            label={t(biology ? 'alarms.windowLabel' : rate ? 'alarms.rateWindowLabel' : 'alarms.minutesLabel')}
            extra={biology ? t('alarms.windowHint') : rate ? t('alarms.rateWindowHint') : undefined}
            rules={[{ required: true, message: t('alarms.limitRequired') }, seriesLimit('minutes')]}
          >
            <InputNumber
              min={biology ? CONCENTRATION_WINDOW_MINUTES.min : rate ? RATE_WINDOW_MINUTES.min : 0}
              max={rate ? RATE_WINDOW_MINUTES.max : 10_080}
              step={biology ? 60 : 1}
              precision={0}
              style={{ width: 200 }}
              data-testid="alarm-rule-minutes"
            />
          </Form.Item>
        )}
        <Form.Item name="for_minutes" label={t('alarms.forLabel')} extra={t('alarms.forHint')}>
          <InputNumber min={0} max={MAX_FOR_MINUTES} precision={0} style={{ width: 200 }} data-testid="alarm-rule-for" />
        </Form.Item>
        <Form.Item name="no_data" label={t('alarms.noDataLabel')} extra={t('alarms.noDataHint')}>
          <Select
            data-testid="alarm-rule-no-data"
            options={NO_DATA_ACTIONS.map((a) => ({ value: a, label: t(`alarms.noDataAction.${a}`) }))}
          />
        </Form.Item>
        <Form.Item name="ipp_id" label={t('alarms.station')}>
          <Select
            loading={ipps.isLoading}
            options={[
              { value: null as unknown as number, label: t('alarms.allStations') },
              ...(ipps.data?.items ?? []).map((ipp) => ({ value: ipp.id, label: `${ipp.site_name} (${ipp.dev_id})` })),
            ]}
          />
        </Form.Item>
        <Form.Item name="renotify_minutes" label={t('alarms.renotifyLabel')} extra={t('alarms.renotifyHint')}>
          <InputNumber min={0} max={10_080} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="enabled" label={t('alarms.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <RoutingFields groupId={team} />
      </Form>
    </Modal>
  );
}
