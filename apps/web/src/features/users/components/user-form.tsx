import { PASSWORD_MAX, PASSWORD_MIN, type Role, type Settings, type Team, type User, type UserSaveBody } from '@ipp/contracts';
import { App, Button, Flex, Form, Input, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormError } from '@/hooks/use-form-error';
import { useSaveUser } from '../api/save-user';
import { grantableRoles, isLimitedRole, teamSeats, type TeamSeats } from '../utils/team-limits';
import { ACCOUNT_MAX, EMAIL_MAX, isValidAccount, isValidEmail, isValidPhone, NAME_MAX, PHONE_MAX } from '../utils/user-rules';
import { TeamLimitsHint } from './team-limits-hint';

export interface UserFormValues {
  account: string;
  name: string;
  password: string;
  phone: string;
  email: string;
  group_id: number | null;
  role: Role | undefined;
}

// Names of the form fields are the body's, so a server 1002 lands on the right field.
const FIELDS = ['account', 'name', 'password', 'phone', 'email', 'group_id', 'role'] as const;

interface UserFormProps {
  /** The user being edited; undefined to create one. */
  user?: User;
  teams: readonly Team[];
  teamsLoading: boolean;
  /** null when the limits could not be read: counts are shown without maxima. */
  settings: Settings | null;
  viewerRole: string | null;
  onSaved: (user: User) => void;
  onCancel: () => void;
}

export function UserForm({ user, teams, teamsLoading, settings, viewerRole, onSaved, onCancel }: UserFormProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<UserFormValues>();
  const save = useSaveUser();
  const reportError = useFormError(form, FIELDS);
  const groupId = Form.useWatch('group_id', form);
  const role = Form.useWatch('role', form);
  const editing = user !== undefined;

  const seatsIn = useCallback(
    (id: number | null | undefined): TeamSeats | null => {
      const chosen = teams.find((candidate) => candidate.id === id);
      return chosen ? teamSeats(chosen, settings, user ? { group_id: user.group_id, role: user.role } : undefined) : null;
    },
    [teams, settings, user],
  );
  const team = teams.find((candidate) => candidate.id === groupId);
  const seats = useMemo(() => seatsIn(groupId), [seatsIn, groupId]);
  const roleChoices = grantableRoles(viewerRole, user?.role);

  // An administrator's only team is theirs: preselect it for a new user.
  useEffect(() => {
    const only = teams.length === 1 ? teams[0] : undefined;
    if (!editing && viewerRole !== 'superadmin' && only && form.getFieldValue('group_id') == null) {
      form.setFieldValue('group_id', only.id);
    }
  }, [editing, viewerRole, teams, form]);

  // Messages already shown were made in the old language; checking again redraws them.
  useEffect(() => {
    const shown = form.getFieldsError().filter((field) => field.errors.length > 0);
    if (shown.length > 0) form.validateFields(shown.map((field) => field.name)).catch(() => undefined);
  }, [i18n.language, form]);

  const submit = (values: UserFormValues) => {
    const body: UserSaveBody = {
      id: user?.id,
      account: values.account.trim(),
      name: values.name.trim(),
      phone: values.phone.trim(),
      email: values.email.trim(),
      group_id: values.group_id ?? null,
      role: values.role ?? 'user',
      // Editing with an empty password keeps the current one.
      ...(values.password ? { password: values.password } : {}),
    };
    save.mutate(body, {
      onSuccess: (saved) => {
        void message.success(t('messages.saveSuccess'));
        onSaved(saved);
      },
      onError: reportError,
    });
  };

  const passwordRules: Rule[] = [
    { required: !editing, message: t('users.passwordRequired') },
    { min: PASSWORD_MIN, message: t('auth.passwordMin', { count: PASSWORD_MIN }) },
    { max: PASSWORD_MAX, message: t('validation.maxLength', { max: PASSWORD_MAX }) },
  ];

  // Reads the team at validation time: it runs right after a team change, before this closure is redrawn.
  const roleRule: Rule = ({ getFieldValue }) => ({
    validator: async (_, value: Role | undefined) => {
      if (!value) throw new Error(t('users.roleRequired'));
      const inTeam = seatsIn(getFieldValue('group_id') as number | null);
      if (inTeam && isLimitedRole(value) && inTeam[value].full) {
        throw new Error(t('users.roleFull', { role: t(`role.${value}`), max: inTeam[value].max ?? 0 }));
      }
    },
  });

  return (
    <Form<UserFormValues>
      form={form}
      layout="vertical"
      style={{ maxWidth: 560 }}
      initialValues={{
        account: user?.account ?? '',
        name: user?.name ?? '',
        password: '',
        phone: user?.phone ?? '',
        email: user?.email ?? '',
        group_id: user?.group_id ?? null,
        role: user?.role ?? (viewerRole === 'superadmin' ? undefined : 'user'),
      }}
      onFinish={submit}
      onFinishFailed={() => void message.warning(t('messages.checkRequired'))}
    >
      <Form.Item
        name="account"
        label={t('users.account')}
        extra={t('users.accountHint')}
        rules={[
          { required: true, whitespace: true, message: t('users.accountRequired') },
          { max: ACCOUNT_MAX, message: t('validation.maxLength', { max: ACCOUNT_MAX }) },
          {
            validator: async (_, value: string | undefined) => {
              if (value?.trim() && value.trim().length <= ACCOUNT_MAX && !isValidAccount(value)) {
                throw new Error(t('users.accountInvalid'));
              }
            },
          },
        ]}
      >
        <Input autoComplete="off" autoFocus={!editing} data-testid="user-account" />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('users.name')}
        rules={[
          { required: true, whitespace: true, message: t('users.nameRequired') },
          { max: NAME_MAX, message: t('validation.maxLength', { max: NAME_MAX }) },
        ]}
      >
        <Input autoComplete="off" data-testid="user-name" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('users.password')}
        extra={editing ? t('users.passwordKeep') : undefined}
        rules={passwordRules}
      >
        <Input.Password autoComplete="new-password" data-testid="user-password" />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('users.phone')}
        rules={[
          { required: true, whitespace: true, message: t('users.phoneRequired') },
          {
            validator: async (_, value: string | undefined) => {
              if (value?.trim() && !isValidPhone(value)) throw new Error(t('users.phoneInvalid'));
            },
          },
        ]}
      >
        <Input inputMode="tel" autoComplete="off" maxLength={PHONE_MAX} data-testid="user-phone" />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('users.email')}
        rules={[
          { required: true, whitespace: true, message: t('users.emailRequired') },
          { max: EMAIL_MAX, message: t('validation.maxLength', { max: EMAIL_MAX }) },
          {
            validator: async (_, value: string | undefined) => {
              if (value?.trim() && !isValidEmail(value)) throw new Error(t('users.emailInvalid'));
            },
          },
        ]}
      >
        <Input type="email" inputMode="email" autoComplete="off" data-testid="user-email" />
      </Form.Item>
      <Form.Item
        name="group_id"
        label={t('users.team')}
        dependencies={['role']}
        extra={role === 'superadmin' ? t('users.teamOptional') : undefined}
        rules={[
          ({ getFieldValue }) => ({
            // Superadmins may have no team (the server allows it).
            required: getFieldValue('role') !== 'superadmin',
            message: t('messages.selectTeam'),
          }),
        ]}
      >
        <Select<number>
          showSearch={{ optionFilterProp: 'label' }}
          allowClear
          loading={teamsLoading}
          placeholder={t('users.teamPlaceholder')}
          options={teams.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
          data-testid="user-team"
        />
      </Form.Item>
      {team && seats && (
        <div style={{ marginBottom: 24 }}>
          <TeamLimitsHint teamName={team.name} seats={seats} />
        </div>
      )}
      {/* dependencies: a role that fits one team may not fit the next. */}
      <Form.Item name="role" label={t('users.role')} dependencies={['group_id']} rules={[roleRule]} required>
        <Select<Role>
          placeholder={t('users.rolePlaceholder')}
          options={roleChoices.map((value) => {
            const full = seats !== null && isLimitedRole(value) && seats[value].full;
            return {
              value,
              label: full ? `${t(`role.${value}`)} ${t('users.roleFullTag')}` : t(`role.${value}`),
              disabled: full,
            };
          })}
          disabled={roleChoices.length === 1 && role === roleChoices[0]}
          data-testid="user-role"
        />
      </Form.Item>
      <Flex gap="small">
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="user-submit">
          {t('common.save')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </Flex>
    </Form>
  );
}
