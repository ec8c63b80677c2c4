import type { Category } from '@ipp/contracts';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Modal, Segmented, Select, Spin, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatCount } from '@/hooks/use-format-count';
import { useCreateClass, useParentTitle } from '../hooks/use-create-class';
import { useTargetFolders } from '../hooks/use-target-folders';
import { FOLDER_TARGETS } from '../utils/actions';
import { ClassTitleModal } from './class-title-modal';

export interface PickedTarget {
  id: number;
  title: string;
}

interface FolderPickerModalProps {
  title: string;
  categories: readonly Category[];
  groupId?: number;
  /** The station the selection is from: IPP gallery folders are per station. */
  ippId?: number;
  /** The folder the selection was made in, not a target of itself. */
  excludeCode?: string;
  onPick: (target: PickedTarget) => void;
  onCancel: () => void;
}

/** Chooses a folder the caller may write, from the folders, temporary classes, team library or IPP gallery. */
export function FolderPickerModal({ title, categories, groupId, ippId, excludeCode, onPick, onCancel }: FolderPickerModalProps) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  // In the order of FOLDER_TARGETS: the team's ordinary folders first.
  const writable = FOLDER_TARGETS.flatMap((id) => categories.filter((category) => category.id === id && category.can_create));
  const [categoryId, setCategoryId] = useState<number | undefined>(writable[0]?.id);
  const [folderId, setFolderId] = useState<number | undefined>(undefined);
  const { folders, loading } = useTargetFolders(categoryId, { groupId, ippId, excludeCode });
  const chosen = folders.find((node) => node.roi_index_id === folderId);
  const createClass = useCreateClass();
  const parentTitle = useParentTitle();
  const [creating, setCreating] = useState(false);
  const category = writable.find((each) => each.id === categoryId);

  const create = async (name: string) => {
    if (!category) return;
    const created = await createClass(category, name, { groupId, ippId });
    if (created.roi_index_id !== null) setFolderId(created.roi_index_id);
  };

  return (
    <Modal
      open
      title={title}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !chosen, 'data-testid': 'identify-target-ok' } as ButtonProps}
      onOk={() => chosen && onPick({ id: chosen.roi_index_id, title: chosen.title })}
      onCancel={onCancel}
      destroyOnHidden
    >
      {writable.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.target.noWritable')} />
      ) : (
        <Flex vertical gap="middle">
          <Flex vertical gap={4}>
            <Typography.Text>{t('identify.target.category')}</Typography.Text>
            <Segmented<number>
              value={categoryId}
              onChange={(value) => {
                setCategoryId(value);
                setFolderId(undefined);
              }}
              options={writable.map((category) => ({
                value: category.id,
                label: (
                  <span data-testid={`identify-target-category-${category.id}`}>{t(`identify.category.${category.key}`)}</span>
                ),
              }))}
            />
          </Flex>
          <Flex vertical gap={4}>
            <Flex justify="space-between" align="center">
              <Typography.Text>{t('identify.target.folder')}</Typography.Text>
              <Button size="small" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="identify-target-new">
                {t('identify.newFolder')}
              </Button>
            </Flex>
            {loading ? (
              <Spin />
            ) : folders.length === 0 ? (
              <Typography.Text type="secondary" data-testid="identify-target-none">
                {t('identify.target.noFolders')}
              </Typography.Text>
            ) : (
              <Select<number>
                showSearch={{ optionFilterProp: 'label' }}
                value={folderId}
                onChange={setFolderId}
                placeholder={t('identify.target.folderPlaceholder')}
                aria-label={t('identify.target.folder')}
                options={folders.map((node) => ({
                  value: node.roi_index_id,
                  label: `${node.title} (${formatCount(node.count)})`,
                }))}
                data-testid="identify-target-folder"
              />
            )}
          </Flex>
        </Flex>
      )}
      {creating && category && (
        <ClassTitleModal
          title={t('identify.newClassTitle', { parent: parentTitle(category) })}
          okText={t('common.save')}
          testId="identify-new-class"
          onSubmit={create}
          onClose={() => setCreating(false)}
        />
      )}
    </Modal>
  );
}
