import { Descriptions, Flex, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { KEY_HELP } from '../hooks/use-identify-keys';

/** The workspace's keyboard shortcuts (?), each key with what it does. */
export function KeysHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('identify.keys.title')} footer={null} onCancel={onClose} width={640} destroyOnHidden>
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
