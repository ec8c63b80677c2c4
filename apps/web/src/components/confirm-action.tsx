import { Popconfirm, Tooltip, type ButtonProps } from 'antd';
import { useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmActionProps {
  title: ReactNode;
  description?: ReactNode;
  okText?: string;
  /** A returned promise keeps the OK button busy until it settles. */
  onConfirm: () => Promise<unknown> | void;
  /** Names an icon-only trigger; hidden while the confirmation is open, which it would otherwise cover. */
  tooltip?: ReactNode;
  children: ReactElement;
}

// The e2e suite clicks every confirmation through this one test id.
const okButtonProps = { danger: true, 'data-testid': 'confirm-ok' } as ButtonProps;

/** Spec §8: deleting and removing ask first. */
export function ConfirmAction({ title, description, okText, onConfirm, tooltip, children }: ConfirmActionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={okText ?? t('common.delete')}
      cancelText={t('common.cancel')}
      okButtonProps={okButtonProps}
      onOpenChange={setOpen}
      onConfirm={async () => {
        // A refusal is already shown by the API client; the popup just closes.
        await Promise.resolve(onConfirm()).catch(() => undefined);
      }}
    >
      {tooltip === undefined ? (
        children
      ) : (
        <Tooltip title={tooltip} open={open ? false : undefined}>
          {children}
        </Tooltip>
      )}
    </Popconfirm>
  );
}
