import type { Ipp } from '@ipp/contracts';
import { Alert, App, Button, Card, Col, Flex, Form, Row } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormError } from '@/hooks/use-form-error';
import { useSaveIpp } from '../api/save-ipp';
import { CONFIG_SECTIONS, type ConfigSection } from '../utils/config-fields';
import { FORM_FIELDS, formValuesOf, saveBodyOf, type IppFormValues } from '../utils/ipp-form-values';
import { configState, configSyncOf } from '../utils/telemetry';
import { ConfigFieldItem } from './config-field-item';
import { GeneralFields, type TeamChoice } from './general-fields';
import { TelemetryList } from './telemetry-list';

interface IppFormProps {
  /** The instrument being edited; undefined to create one. */
  ipp?: Ipp;
  teams: readonly TeamChoice[];
  teamsLoading: boolean;
  teamFixed: boolean;
  /** The team a new instrument starts in (an administrator's own). */
  defaultTeam: number | null;
  /** A user sees the configuration but cannot change it. */
  readOnly: boolean;
  onCreated: (ipp: Ipp, deviceKey: string) => void;
  /** Back to the instrument list. */
  onBack: () => void;
}

const FIELD_COL = { xs: 24, md: 12, xl: 8 } as const;

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card type="inner" size="small" title={title} data-testid={testId}>
      {children}
    </Card>
  );
}

function ConfigFields({ section, ipp }: { section: ConfigSection; ipp: Ipp | undefined }) {
  return (
    <Row gutter={16}>
      {CONFIG_SECTIONS[section].map((config) => (
        <Col key={config.key} {...FIELD_COL}>
          <ConfigFieldItem config={config} state={configState(ipp, config.key)} />
        </Col>
      ))}
    </Row>
  );
}

/** Whether the instrument has taken over the saved configuration. */
function ConfigSync({ ipp }: { ipp: Ipp }) {
  const { t } = useTranslation();
  const sync = configSyncOf(ipp);
  if (sync === 'unknown') {
    return <Alert type="info" showIcon title={t('ipps.state.neverReported')} data-testid="ipp-config-sync" />;
  }
  if (sync === 'applied') {
    return <Alert type="success" showIcon title={t('ipps.state.allApplied')} data-testid="ipp-config-sync" />;
  }
  return (
    <Alert
      type="warning"
      showIcon
      title={t('ipps.state.somePending', { count: ipp.pending.length })}
      description={ipp.pending.map((key) => t(`ipps.config.${key}`)).join(t('common.listSeparator'))}
      data-testid="ipp-config-sync"
    />
  );
}

/** The full instrument form of spec §3, section by section. */
export function IppForm({ ipp, teams, teamsLoading, teamFixed, defaultTeam, readOnly, onCreated, onBack }: IppFormProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<IppFormValues>();
  const save = useSaveIpp();
  const reportError = useFormError(form, FORM_FIELDS);
  const editing = ipp !== undefined;

  // The signed-in user's team may arrive after the form is drawn.
  useEffect(() => {
    if (!editing && defaultTeam !== null && form.getFieldValue('group_id') == null) form.setFieldValue('group_id', defaultTeam);
  }, [editing, defaultTeam, form]);

  // Messages already shown were made in the old language; checking again redraws them.
  useEffect(() => {
    const shown = form.getFieldsError().filter((field) => field.errors.length > 0 || field.warnings.length > 0);
    if (shown.length > 0) form.validateFields(shown.map((field) => field.name)).catch(() => undefined);
  }, [i18n.language, form]);

  const submit = (values: IppFormValues) => {
    save.mutate(saveBodyOf(values, ipp?.id), {
      onSuccess: ({ ipp: saved, device_key }) => {
        void message.success(t('messages.saveSuccess'));
        if (editing) return;
        if (device_key) onCreated(saved, device_key);
        else onBack();
      },
      onError: reportError,
    });
  };

  return (
    <Form<IppFormValues>
      form={form}
      layout="vertical"
      disabled={readOnly}
      // The form is long: a refused value further down must not go unseen.
      scrollToFirstError={{ block: 'center' }}
      initialValues={formValuesOf(ipp, defaultTeam)}
      onFinish={submit}
      onFinishFailed={() => void message.warning(t('messages.checkRequired'))}
    >
      <Flex vertical gap="middle">
        {ipp && <ConfigSync ipp={ipp} />}
        <Section title={t('ipps.section.general')} testId="ipp-section-general">
          <GeneralFields teams={teams} teamsLoading={teamsLoading} teamFixed={teamFixed} />
          <TelemetryList section="general" ipp={ipp} />
        </Section>
        <Section title={t('ipps.section.camera')} testId="ipp-section-camera">
          <ConfigFields section="camera" ipp={ipp} />
        </Section>
        <Section title={t('ipps.section.preprocessing')} testId="ipp-section-preprocessing">
          <ConfigFields section="preprocessing" ipp={ipp} />
        </Section>
        <Section title={t('ipps.section.wiper')} testId="ipp-section-wiper">
          <ConfigFields section="wiper" ipp={ipp} />
          <TelemetryList section="wiper" ipp={ipp} />
        </Section>
        <Section title={t('ipps.section.uvc')} testId="ipp-section-uvc">
          <ConfigFields section="uvc" ipp={ipp} />
          <TelemetryList section="uvc" ipp={ipp} />
        </Section>
        <Section title={t('ipps.section.lowPower')} testId="ipp-section-low-power">
          <TelemetryList section="lowPower" ipp={ipp} />
        </Section>
        <Section title={t('ipps.section.carrier')} testId="ipp-section-carrier">
          <TelemetryList section="carrier" ipp={ipp} />
        </Section>
        <Section title={t('ipps.section.summary')} testId="ipp-section-summary">
          <TelemetryList section="summary" ipp={ipp} />
        </Section>
        {!readOnly && (
          <Flex gap="small">
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="ipp-submit">
              {t('common.save')}
            </Button>
            <Button onClick={onBack}>{t('common.cancel')}</Button>
          </Flex>
        )}
      </Flex>
    </Form>
  );
}
