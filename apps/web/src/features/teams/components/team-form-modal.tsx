import { TEAM_NAME_MAX, type Team } from '@ipp/contracts';
import { App, Form, Input, Modal, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormError } from '@/hooks/use-form-error';
import { useSaveTeam } from '../api/save-team';

interface TeamFormValues {
  name: string;
}

const FIELDS = ['name'] as const;

/** Add (team undefined) or rename a team. */
export function TeamFormModal({ team, onClose }: { team?: Team; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TeamFormValues>();
  const save = useSaveTeam();
  const reportError = useFormError(form, FIELDS);

  const submit = ({ name }: TeamFormValues) => {
    save.mutate(
      { id: team?.id, name: name.trim() },
      {
        onSuccess: () => {
          void message.success(t(team ? 'messages.saveSuccess' : 'messages.teamCreated'));
          onClose();
        },
        onError: reportError,
      },
    );
  };

  return (
    <Modal
      open
      title={t(team ? 'teams.renameTitle' : 'teams.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'team-modal-ok' } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<TeamFormValues>
        form={form}
        layout="vertical"
        initialValues={{ name: team?.name ?? '' }}
        onFinish={submit}
        onFinishFailed={() => void message.warning(t('messages.checkRequired'))}
      >
        <Form.Item
          name="name"
          label={t('teams.name')}
          rules={[
            { required: true, whitespace: true, message: t('teams.nameRequired') },
            { max: TEAM_NAME_MAX, message: t('validation.maxLength', { max: TEAM_NAME_MAX }) },
          ]}
        >
          <Input autoFocus maxLength={TEAM_NAME_MAX} data-testid="team-name-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
