import { PASSWORD_MAX, PASSWORD_MIN } from '@ipp/contracts';
import { App, Button, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormError } from '@/hooks/use-form-error';
import { useChangePassword } from '../api/change-password';

interface PasswordValues {
  password: string;
  newpassword: string;
  confirm: string;
}

const FIELDS = ['password', 'newpassword'] as const;

export function ChangePasswordForm() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const change = useChangePassword();
  const reportError = useFormError(form, FIELDS);

  useEffect(() => {
    const shown = form.getFieldsError().filter((field) => field.errors.length > 0);
    if (shown.length > 0) form.validateFields(shown.map((field) => field.name)).catch(() => undefined);
  }, [i18n.language, form]);

  const submit = ({ password, newpassword }: PasswordValues) => {
    change.mutate(
      { password, newpassword },
      {
        onSuccess: () => {
          void message.success(t('account.changed'));
          form.resetFields();
        },
        onError: reportError,
      },
    );
  };

  return (
    <Form<PasswordValues> form={form} layout="vertical" style={{ maxWidth: 420 }} onFinish={submit}>
      <Form.Item name="password" label={t('account.current')} rules={[{ required: true, message: t('account.currentRequired') }]}>
        <Input.Password autoComplete="current-password" data-testid="account-current" />
      </Form.Item>
      <Form.Item
        name="newpassword"
        label={t('account.new')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('account.newRequired') },
          { min: PASSWORD_MIN, message: t('auth.passwordMin', { count: PASSWORD_MIN }) },
          { max: PASSWORD_MAX, message: t('validation.maxLength', { max: PASSWORD_MAX }) },
          ({ getFieldValue }) => ({
            validator: async (_, value: string | undefined) => {
              if (value && value === getFieldValue('password')) throw new Error(t('account.sameAsCurrent'));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="account-new" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('account.confirm')}
        dependencies={['newpassword']}
        rules={[
          { required: true, message: t('account.confirmRequired') },
          ({ getFieldValue }) => ({
            validator: async (_, value: string | undefined) => {
              if (value && value !== getFieldValue('newpassword')) throw new Error(t('account.mismatch'));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="account-confirm" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="account-submit">
        {t('account.submit')}
      </Button>
    </Form>
  );
}
