import { Form, Input, Modal, Typography, type ButtonProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormError } from '@/hooks/use-form-error';
import { checkClassName } from '../utils/class-name';

interface ClassTitleModalProps {
  title: ReactNode;
  initial?: string;
  okText?: string;
  /** Test ids: `<testId>-input` and `<testId>-ok`. */
  testId: string;
  /** Resolves when done; a server refusal naming `title` shows under the field, others as a toast. */
  onSubmit: (title: string) => Promise<unknown> | void;
  onClose: () => void;
}

interface Values {
  title: string;
}

const FIELDS = ['title'] as const;
const TITLE_MAX = 64;

/** A class (folder) name, checked against the naming rule of spec §5 before it is sent. */
export function ClassTitleModal({ title, initial = '', okText, testId, onSubmit, onClose }: ClassTitleModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const reportError = useFormError(form, FIELDS);
  const [busy, setBusy] = useState(false);

  const submit = async ({ title: value }: Values) => {
    setBusy(true);
    try {
      await onSubmit(value.trim());
      onClose();
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={title}
      okText={okText ?? t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: busy, 'data-testid': `${testId}-ok` } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ title: initial }} onFinish={(values) => void submit(values)}>
        <Form.Item
          name="title"
          label={t('identify.className')}
          extra={<Typography.Text type="secondary">{t('identify.classNameHint')}</Typography.Text>}
          rules={[
            {
              validator: (_rule, value: string | undefined) => {
                const problem = checkClassName(value);
                return problem ? Promise.reject(new Error(t(`identify.naming.${problem}`))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input autoFocus maxLength={TITLE_MAX} data-testid={`${testId}-input`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
