import { CATEGORY, type Category, type TreeNode } from '@ipp/contracts';
import { App, Empty, Flex, Modal, Segmented, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOperateFolder } from '../api/operate-folder';
import { CLASS_TARGETS } from '../utils/actions';
import { FolderPickerModal, type PickedTarget } from './folder-picker-modal';

interface OperateClassModalProps {
  type: 'copy' | 'move';
  node: TreeNode & { roi_index_id: number };
  sourceCategoryId: number;
  categories: readonly Category[];
  ippId?: number;
  groupId?: number;
  onClose: () => void;
}

type Mode = 'class' | 'images';

/**
 * Copy or move a class (spec §4): the class itself with its images into another category (a folder of the same
 * title there, made or reused), or its images only into an existing folder chosen next.
 */
export function OperateClassModal({ type, node, sourceCategoryId, categories, ippId, groupId, onClose }: OperateClassModalProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const operate = useOperateFolder();
  // An IPP gallery folder belongs to a station: it can only be made for the station chosen.
  const targets = CLASS_TARGETS.flatMap((id) =>
    categories.filter(
      (c) => c.id === id && c.id !== sourceCategoryId && c.can_create && (c.id !== CATEGORY.SITE_GALLERY || ippId !== undefined),
    ),
  );
  const [chosen, setChosen] = useState<number | undefined>(targets[0]?.id);
  const [mode, setMode] = useState<Mode>('class');
  const [picking, setPicking] = useState(false);

  const done = {
    onSuccess: () => {
      void message.success(t('messages.operationSuccess'));
      onClose();
    },
  };
  // Spec §8: a copy or move asks first; here the folder picker chose the target, the confirmation names it.
  const intoFolder = (folder: PickedTarget) => {
    setPicking(false);
    modal.confirm({
      title: t(`identify.operateTitle.${type}`, { name: node.title }),
      content: t(`identify.operateImagesConfirm.${type}`, { name: node.title, target: folder.title }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: () =>
        operate
          .mutateAsync({ type, roi_index_id: node.roi_index_id, roi_index_code: `f:${folder.id}` })
          .then(done.onSuccess, () => undefined),
    });
  };

  if (picking) {
    return (
      <FolderPickerModal
        title={t(`identify.operateTitle.${type}`, { name: node.title })}
        categories={categories}
        groupId={groupId}
        ippId={ippId}
        excludeCode={node.code}
        onPick={intoFolder}
        onCancel={() => setPicking(false)}
      />
    );
  }

  const submit = () => {
    if (mode === 'images') {
      setPicking(true);
      return;
    }
    if (chosen === undefined) return;
    operate.mutate(
      {
        type,
        roi_index_id: node.roi_index_id,
        category_id: chosen,
        ipp_id: chosen === CATEGORY.SITE_GALLERY ? ippId : undefined,
      },
      done,
    );
  };

  return (
    <Modal
      open
      title={t(`identify.operateTitle.${type}`, { name: node.title })}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={
        {
          disabled: mode === 'class' && chosen === undefined,
          loading: operate.isPending,
          'data-testid': 'identify-operate-ok',
        } as ButtonProps
      }
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Segmented<Mode>
        block
        style={{ marginBottom: 12 }}
        value={mode}
        onChange={setMode}
        options={[
          { value: 'class', label: <span data-testid="identify-operate-mode-class">{t('identify.operateMode.class')}</span> },
          { value: 'images', label: <span data-testid="identify-operate-mode-images">{t('identify.operateMode.images')}</span> },
        ]}
      />
      {mode === 'images' ? (
        <Typography.Text type="secondary">{t(`identify.operateMode.imagesHint.${type}`)}</Typography.Text>
      ) : targets.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.target.noWritable')} />
      ) : (
        <Flex vertical gap={4}>
          <Typography.Text>{t('identify.target.category')}</Typography.Text>
          <Segmented<number>
            value={chosen}
            onChange={setChosen}
            options={targets.map((c) => ({
              value: c.id,
              label: <span data-testid={`identify-operate-category-${c.id}`}>{t(`identify.category.${c.key}`)}</span>,
            }))}
          />
          <Typography.Text type="secondary">{t(`identify.operateHint.${type}`)}</Typography.Text>
        </Flex>
      )}
    </Modal>
  );
}
