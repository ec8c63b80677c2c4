import { CATEGORY, type Category, type ToolbarItem, type TreeNode } from '@ipp/contracts';
import { App, type ButtonProps, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddToolbar } from '../api/add-toolbar';
import { useChangeStatus } from '../api/change-status';
import { useDeleteNode } from '../api/delete-node';
import { useDeleteToolbar } from '../api/delete-toolbar';
import { useOperateFolder } from '../api/operate-folder';
import { useRenameNode, type NodeRef } from '../api/rename-node';
import { ClassTitleModal } from '../components/class-title-modal';
import { OperateClassModal } from '../components/operate-class-modal';
import { nodeMenuKeys, type NodeMenuKey } from '../utils/node-menu';

export interface NodeActionsScope {
  category: Category;
  categories: readonly Category[];
  groupId?: number;
  ippId?: number;
  toolbar: readonly ToolbarItem[];
  isAdmin: boolean;
  demo: boolean;
  /** A node that no longer exists (deleted, moved away). */
  onRemoved: (code: string) => void;
}

const MENU_LABELS: Record<NodeMenuKey, string> = {
  'toolbar-add': 'identify.nodeMenu.toolbarAdd',
  'toolbar-remove': 'identify.nodeMenu.toolbarRemove',
  'attention-add': 'identify.nodeMenu.attentionAdd',
  'attention-remove': 'identify.nodeMenu.attentionRemove',
  rename: 'identify.nodeMenu.rename',
  delete: 'identify.nodeMenu.delete',
  'copy-class': 'identify.nodeMenu.copyClass',
  'move-class': 'identify.nodeMenu.moveClass',
  'to-hi': 'identify.nodeMenu.toHi',
};

const refOf = (node: TreeNode): NodeRef | null =>
  node.roi_index_id !== null ? { roi_index_id: node.roi_index_id } : node.class_id !== null ? { class_id: node.class_id } : null;

/** The class operations of the tree's context menu: shortcuts, attention, rename, delete, copy/move, to HI. */
export function useNodeActions(scope: NodeActionsScope) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const addToolbar = useAddToolbar();
  const deleteToolbar = useDeleteToolbar();
  const changeStatus = useChangeStatus();
  const rename = useRenameNode();
  const remove = useDeleteNode();
  const operate = useOperateFolder();
  const [renaming, setRenaming] = useState<TreeNode | null>(null);
  const [operating, setOperating] = useState<{ node: TreeNode & { roi_index_id: number }; type: 'copy' | 'move' } | null>(null);

  const done = (text = t('messages.operationSuccess')) => void message.success(text);
  const ignore = () => undefined;

  const keysFor = (node: TreeNode) =>
    nodeMenuKeys(node, {
      canWrite: scope.category.can_create,
      isAdmin: scope.isAdmin,
      editClasses: scope.category.id === CATEGORY.SITE,
      demo: scope.demo,
      readOnly: scope.category.id === CATEGORY.EXAMPLE,
    });

  const run = (node: TreeNode, key: NodeMenuKey) => {
    const ref = refOf(node);
    switch (key) {
      case 'toolbar-add':
        addToolbar.mutateAsync({ category_id: scope.category.id, code: node.code, title: node.title }).then(() => done(), ignore);
        return;
      case 'toolbar-remove': {
        const item = scope.toolbar.find((each) => each.category_id === scope.category.id && each.code === node.code);
        if (item) deleteToolbar.mutateAsync(item.id).then(() => done(), ignore);
        return;
      }
      case 'attention-add':
      case 'attention-remove':
        if (ref) changeStatus.mutateAsync({ ...ref, attention: key === 'attention-add' }).then(() => done(), ignore);
        return;
      case 'rename':
        setRenaming(node);
        return;
      case 'delete':
        if (!ref) return;
        modal.confirm({
          title: t('identify.deleteConfirm', { name: node.title }),
          okText: t('common.delete'),
          cancelText: t('common.cancel'),
          okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as ButtonProps,
          onOk: () =>
            remove.mutateAsync(ref).then(() => {
              done(t('messages.deleteSuccess'));
              scope.onRemoved(node.code);
            }, ignore),
        });
        return;
      case 'copy-class':
      case 'move-class':
        if (node.roi_index_id !== null)
          setOperating({ node: { ...node, roi_index_id: node.roi_index_id }, type: key === 'copy-class' ? 'copy' : 'move' });
        return;
      case 'to-hi':
        if (node.roi_index_id === null) return;
        modal.confirm({
          title: t('identify.nodeMenu.toHi'),
          content: t('identify.toHiConfirm', { name: node.title }),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          okButtonProps: { 'data-testid': 'confirm-ok' } as ButtonProps,
          onOk: () => operate.mutateAsync({ type: 'to_hi', roi_index_id: node.roi_index_id! }).then(() => done(), ignore),
        });
        return;
    }
  };

  const menuFor = (node: TreeNode): MenuProps => ({
    items: keysFor(node).map((key) => ({
      key,
      danger: key === 'delete',
      label: <span data-testid={`identify-node-action-${key}`}>{t(MENU_LABELS[key])}</span>,
    })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      run(node, key as NodeMenuKey);
    },
  });

  const renamingRef = renaming ? refOf(renaming) : null;
  const element = (
    <>
      {renaming && renamingRef && (
        <ClassTitleModal
          title={t('identify.renameTitle', { name: renaming.title })}
          initial={renaming.title}
          okText={t('common.save')}
          testId="identify-rename"
          onSubmit={async (title) => {
            await rename.mutateAsync({ ...renamingRef, title });
            done(t('messages.saveSuccess'));
          }}
          onClose={() => setRenaming(null)}
        />
      )}
      {operating && (
        <OperateClassModal
          type={operating.type}
          node={operating.node}
          sourceCategoryId={scope.category.id}
          categories={scope.categories}
          ippId={scope.ippId}
          groupId={scope.groupId}
          onClose={() => setOperating(null)}
        />
      )}
    </>
  );

  return { keysFor, menuFor, element };
}
