import { Modal, Select, Spin, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClasses } from '@/api/get-classes';
import { classOption } from '../utils/class-name';
import type { PickedTarget } from './folder-picker-modal';

/** Chooses the class a selection is labelled with by hand (target 'class': 21 and 23). */
export function ClassPickerModal({
  title,
  onPick,
  onCancel,
}: {
  title: string;
  onPick: (target: PickedTarget) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const classes = useClasses();
  const [classId, setClassId] = useState<number | undefined>(undefined);
  const chosen = classes.data?.find((item) => item.id === classId);
  return (
    <Modal
      open
      title={title}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !chosen, 'data-testid': 'identify-target-ok' } as ButtonProps}
      onOk={() => chosen && onPick({ id: chosen.id, title: chosen.title })}
      onCancel={onCancel}
      destroyOnHidden
    >
      {classes.isPending ? (
        <Spin />
      ) : (
        <Select<number>
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: '100%' }}
          value={classId}
          onChange={setClassId}
          placeholder={t('identify.target.classPlaceholder')}
          aria-label={t('identify.target.class')}
          options={(classes.data ?? []).map((item) => classOption(item, t))}
          data-testid="identify-target-class"
        />
      )}
    </Modal>
  );
}
