import { Descriptions, Flex, Modal, Tag } from 'antd';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { KEY_HELP } from '../hooks/use-identify-keys';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Tab and Shift+Tab go round the dialog's own controls. antd's focus lock sends the focus back only when it lands
 * elsewhere in the page; from the last control of a dialog at the end of the page it leaves the page altogether
 * (issue 37: Tab from the shortcuts' close button left the dialog).
 */
export function keepTabInside(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Tab') return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = controls[0];
  const last = controls.at(-1);
  const active = document.activeElement;
  const leaving = event.shiftKey ? active === first || active === event.currentTarget : active === last;
  if (!first || !last || leaving || !event.currentTarget.contains(active)) {
    event.preventDefault();
    (event.shiftKey ? last : first)?.focus();
  }
}

/** The workspace's keyboard shortcuts (?), each key with what it does. */
export function KeysHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('identify.keys.title')}
      footer={null}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      modalRender={(dialog) => <div onKeyDown={keepTabInside}>{dialog}</div>}
    >
      <Descriptions
        size="small"
        column={1}
        bordered
        styles={{ label: { width: 200 } }}
        data-testid="identify-keys-help"
        items={KEY_HELP.map((entry) => ({
          key: entry.id,
          label: (
            <Flex gap={4} wrap>
              {entry.keys.map((key) => (
                <Tag key={key} style={{ fontFamily: 'monospace', marginInlineEnd: 0 }}>
                  {key}
                </Tag>
              ))}
            </Flex>
          ),
          children: t(`identify.keys.${entry.id}`),
        }))}
      />
    </Modal>
  );
}
