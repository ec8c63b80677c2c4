import type { LoginBody, LoginResult } from '@ipp/contracts';
import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/api-error';
import { AlertOnDemand } from '@/components/alert-on-demand';
import { getApiHost, normalizeHost, setApiHost } from '@/lib/api-host';
import { PASSWORD_MIN } from '@/lib/contract-constants';
import { useLogin } from '../api/login';

interface LoginValues {
  username: string;
  password: string;
  host: string;
}

export function LoginForm({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<LoginValues>();
  const loginMutation = useLogin();
  const [hostOpen, setHostOpen] = useState(() => getApiHost() !== '');

  // Messages already shown were produced in the old language; validating again re-renders them.
  useEffect(() => {
    const shown = form.getFieldsError().filter((field) => field.errors.length > 0);
    if (shown.length > 0) form.validateFields(shown.map((field) => field.name)).catch(() => undefined);
  }, [i18n.language, form]);

  const submit = (values: LoginValues) => {
    setApiHost(normalizeHost(values.host ?? '') ?? '');
    const body: LoginBody = { username: values.username.trim(), password: values.password };
    loginMutation.mutate(body, { onSuccess: onSignedIn });
  };

  const error = loginMutation.error;
  const errorMessage = error ? (isApiError(error) ? error.message : t('api.interfaceError')) : null;

  return (
    <Form<LoginValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ username: '', password: '', host: getApiHost() }}
      onFinish={submit}
      onValuesChange={() => loginMutation.reset()}
    >
      {errorMessage && (
        <AlertOnDemand
          type="error"
          showIcon
          title={errorMessage}
          data-testid="login-error"
          role="alert"
          style={{ marginBottom: 16 }}
        />
      )}
      <Form.Item
        name="username"
        label={t('auth.username')}
        rules={[{ required: true, whitespace: true, message: t('auth.usernameRequired') }]}
      >
        <Input autoComplete="username" autoFocus data-testid="login-username" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('auth.password')}
        rules={[
          { required: true, message: t('auth.passwordRequired') },
          { min: PASSWORD_MIN, message: t('auth.passwordMin', { count: PASSWORD_MIN }) },
        ]}
      >
        <Password autoComplete="current-password" data-testid="login-password" />
      </Form.Item>
      <Button
        type="link"
        size="small"
        style={{ paddingInline: 0, marginBottom: 8 }}
        aria-expanded={hostOpen}
        aria-controls="login-host-field"
        data-testid="login-host-toggle"
        onClick={() => setHostOpen((open) => !open)}
      >
        {t('auth.hostToggle')}
      </Button>
      <Form.Item
        name="host"
        id="login-host-field"
        label={t('auth.host')}
        extra={t('auth.hostHelp')}
        hidden={!hostOpen}
        rules={[
          {
            validator: async (_, value: string | undefined) => {
              if (normalizeHost(value ?? '') === null) throw new Error(t('auth.hostInvalid'));
            },
          },
        ]}
      >
        <Input placeholder={t('auth.hostPlaceholder')} inputMode="url" data-testid="login-host" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={loginMutation.isPending} data-testid="login-submit">
        {t('auth.submit')}
      </Button>
    </Form>
  );
}
