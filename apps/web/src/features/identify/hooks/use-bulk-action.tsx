import { ACTION_CODES, type Action, type ActionCode, type BulkActionBody, type Category } from '@ipp/contracts';
import { App, Flex, Modal, Spin, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunAction } from '../api/run-action';
import { ClassPickerModal } from '../components/class-picker-modal';
import { ClassTitleModal } from '../components/class-title-modal';
import { FolderPickerModal } from '../components/folder-picker-modal';
import { MAX_SELECTION, needsConfirm, PROGRESS_ABOVE } from '../utils/actions';
import { useActionLabel } from './use-action-label';

export interface BulkScope {
  categoryId: number;
  /** The tree node the selection was made in (what a move or a remove takes the ROIs out of). */
  code?: string;
  reviewedType?: number;
  categories: readonly Category[];
  groupId?: number;
  ippId?: number;
}

type Target = Pick<BulkActionBody, 'target_id' | 'title'>;

const isActionCode = (code: string): code is ActionCode => (ACTION_CODES as readonly string[]).includes(code);

/**
 * One bulk action from the button to the answer: the target it needs (folder, class or new title), the
 * confirmation of spec §8 for the codes that ask, one POST /roi/save-move, and the toast. Large selections show
 * a progress dialog while the single request runs.
 */
export function useBulkAction(scope: BulkScope, onDone: (action: Action, roiIds: number[]) => void) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const label = useActionLabel();
  const run = useRunAction();
  const [picking, setPicking] = useState<{ action: Action; roiIds: number[]; quick: boolean } | null>(null);
  const [running, setRunning] = useState<{ label: string; count: number } | null>(null);

  const execute = async (action: Action, roiIds: number[], target: Target, targetTitle?: string) => {
    if (!isActionCode(action.code)) {
      void message.error(t('identify.permissionNotConfigured'));
      return;
    }
    setRunning({ label: label(action.code), count: roiIds.length });
    try {
      const result = await run.mutateAsync({
        body: {
          type: action.code,
          category_id: scope.categoryId,
          code: scope.code,
          reviewed_type: scope.reviewedType,
          roi_ids: roiIds,
          ...target,
        },
        className: targetTitle,
      });
      void message.success(t('identify.done', { count: result.affected, unchanged: result.unchanged }));
      onDone(action, roiIds);
    } catch {
      // The API client has shown the server's message.
    } finally {
      setRunning(null);
    }
  };

  const confirmThen = (action: Action, roiIds: number[], target: Target, targetTitle?: string) => {
    if (!needsConfirm(action)) {
      void execute(action, roiIds, target, targetTitle);
      return;
    }
    const count = roiIds.length;
    modal.confirm({
      title: label(action.code),
      content:
        targetTitle === undefined
          ? t('identify.confirmAction', { count })
          : t('identify.confirmActionTo', { count, target: targetTitle }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: action.danger, 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: () => void execute(action, roiIds, target, targetTitle),
    });
  };

  /** `quick`: from the keyboard; the class picker opens focused and applies the class chosen at once. */
  const start = (action: Action, roiIds: number[], options: { quick?: boolean } = {}) => {
    if (roiIds.length === 0) return;
    if (roiIds.length > MAX_SELECTION) {
      void message.warning(t('identify.tooMany', { max: MAX_SELECTION }));
      return;
    }
    if (action.target === 'none') confirmThen(action, roiIds, {});
    else setPicking({ action, roiIds, quick: options.quick ?? false });
  };

  const picked = (target: Target, targetTitle: string) => {
    if (!picking) return;
    setPicking(null);
    confirmThen(picking.action, picking.roiIds, target, targetTitle);
  };
  const cancel = () => setPicking(null);
  const pickTitle = picking ? `${label(picking.action.code)} · ${t('identify.selected', { count: picking.roiIds.length })}` : '';

  const element = (
    <>
      {picking?.action.target === 'folder' && (
        <FolderPickerModal
          title={pickTitle}
          categories={scope.categories}
          groupId={scope.groupId}
          ippId={scope.ippId}
          excludeCode={scope.code}
          onPick={(target) => picked({ target_id: target.id }, target.title)}
          onCancel={cancel}
        />
      )}
      {picking?.action.target === 'class' && (
        <ClassPickerModal
          title={pickTitle}
          quick={picking.quick}
          onPick={(target) => picked({ target_id: target.id }, target.title)}
          onCancel={cancel}
        />
      )}
      {picking?.action.target === 'title' && (
        <ClassTitleModal
          title={pickTitle}
          testId="identify-target-title"
          onSubmit={(title) => picked({ title }, title)}
          onClose={cancel}
        />
      )}
      <Modal
        open={running !== null && running.count > PROGRESS_ABOVE}
        title={running?.label}
        closable={false}
        mask={{ closable: false }}
        keyboard={false}
        footer={null}
      >
        <Flex vertical align="center" gap="middle" data-testid="identify-progress">
          <Spin size="large" />
          <Typography.Text>{t('identify.running', { count: running?.count ?? 0 })}</Typography.Text>
        </Flex>
      </Modal>
    </>
  );

  return { start, element, busy: running !== null };
}
