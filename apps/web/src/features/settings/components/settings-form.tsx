import { LANGS, type Settings } from '@ipp/contracts';
import { App, Button, Card, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormError } from '@/hooks/use-form-error';
import { useSaveSettings } from '../api/save-settings';
import {
  changedSettings,
  DEVICE_FIELDS,
  formValuesOf,
  isValidTileUrl,
  SESSION_FIELDS,
  SITE_TITLE_MAX,
  TEAM_FIELDS,
  type NumberField,
  type SettingsFormValues,
} from '../utils/settings-fields';

const FIELDS = [...TEAM_FIELDS, ...SESSION_FIELDS, ...DEVICE_FIELDS]
  .map((field) => field.name as string)
  .concat(['default_language', 'site_title', 'map_tile_url']);

export function SettingsForm({ settings, readOnly }: { settings: Settings; readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SettingsFormValues>();
  const save = useSaveSettings();
  const reportError = useFormError(form, FIELDS);

  const submit = (values: SettingsFormValues) => {
    const body = changedSettings(settings, values);
    if (Object.keys(body).length === 0) {
      void message.info(t('settings.noChanges'));
      return;
    }
    save.mutate(body, {
      onSuccess: (saved) => {
        form.setFieldsValue(formValuesOf(saved));
        void message.success(t('messages.configSuccess'));
      },
      onError: reportError,
    });
  };

  const numberItem = ({ name, unitKey, min, max }: NumberField) => (
    <Form.Item
      key={name}
      name={name}
      label={t(`settings.${name}`)}
      extra={t('settings.range', { min, max, unit: t(unitKey) })}
      rules={[
        { required: true, message: t('validation.required') },
        { type: 'integer', min, max, message: t('settings.rangeError', { min, max }) },
      ]}
    >
      <InputNumber<number>
        min={min}
        max={max}
        precision={0}
        suffix={t(unitKey)}
        style={{ width: 200 }}
        data-testid={`config-${name}`}
      />
    </Form.Item>
  );

  return (
    <Form<SettingsFormValues>
      form={form}
      layout="vertical"
      disabled={readOnly}
      initialValues={formValuesOf(settings)}
      onFinish={submit}
      onFinishFailed={() => void message.warning(t('messages.checkRequired'))}
    >
      <Card type="inner" title={t('settings.teamsSection')} style={{ marginBottom: 16 }}>
        {TEAM_FIELDS.map(numberItem)}
      </Card>
      <Card type="inner" title={t('settings.siteSection')} style={{ marginBottom: 16 }}>
        <Form.Item
          name="site_title"
          label={t('settings.site_title')}
          extra={t('settings.siteTitleHint', { max: SITE_TITLE_MAX })}
          rules={[{ max: SITE_TITLE_MAX, message: t('validation.maxLength', { max: SITE_TITLE_MAX }) }]}
        >
          <Input
            maxLength={SITE_TITLE_MAX}
            placeholder={t('app.name')}
            style={{ maxWidth: 360 }}
            data-testid="config-site_title"
          />
        </Form.Item>
        <Form.Item name="default_language" label={t('settings.default_language')} extra={t('settings.defaultLanguageHint')}>
          <Select
            style={{ width: 200 }}
            options={LANGS.map((lang) => ({ value: lang, label: t(`lang.${lang}`) }))}
            data-testid="config-default_language"
          />
        </Form.Item>
        {SESSION_FIELDS.map(numberItem)}
      </Card>
      <Card type="inner" title={t('settings.deviceSection')} style={{ marginBottom: 16 }}>
        {DEVICE_FIELDS.map(numberItem)}
        <Form.Item
          name="map_tile_url"
          label={t('settings.map_tile_url')}
          extra={t('settings.mapTileUrlHint')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                if (!isValidTileUrl(value ?? '')) throw new Error(t('settings.mapTileUrlInvalid'));
              },
            },
          ]}
        >
          <Input
            allowClear
            placeholder="https://tile.openstreetmap.org/{z}/{x}/{y}.png"
            style={{ maxWidth: 560 }}
            data-testid="config-map_tile_url"
          />
        </Form.Item>
      </Card>
      {readOnly ? (
        <Typography.Text type="secondary">{t('settings.readOnly')}</Typography.Text>
      ) : (
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="config-save">
          {t('common.save')}
        </Button>
      )}
    </Form>
  );
}
