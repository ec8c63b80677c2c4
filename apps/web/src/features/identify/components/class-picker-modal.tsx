import type { ClassItem } from '@ipp/contracts';
import { Modal, Select, Spin, Typography, type ButtonProps, type RefSelectProps } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClasses } from '@/api/get-classes';
import { classOption } from '../utils/class-name';
import type { PickedTarget } from './folder-picker-modal';

/** What type-ahead matches for a class: its title and its taxon, Latin and Chinese (issue 25). */
export function classSearchText(item: Pick<ClassItem, 'title' | 'taxon'>): string {
  return [item.title, item.taxon?.name, item.taxon?.name_zh].filter(Boolean).join(' ').toLowerCase();
}

/**
 * Chooses the class a selection is labelled with by hand (target 'class': 21, 23, 82). Type-ahead over the class
 * titles and their taxa; with `quick` (set class from the keyboard) the list is open and focused, and choosing a
 * class (Enter) applies it at once.
 */
export function ClassPickerModal({
  title,
  quick = false,
  onPick,
  onCancel,
}: {
  title: string;
  quick?: boolean;
  onPick: (target: PickedTarget) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const classes = useClasses();
  const [classId, setClassId] = useState<number | undefined>(undefined);
  const chosen = classes.data?.find((item) => item.id === classId);
  const pick = (item: ClassItem | undefined) => item && onPick({ id: item.id, title: item.title });
  const select = useRef<RefSelectProps>(null);
  return (
    <Modal
      open
      title={title}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !chosen, 'data-testid': 'identify-target-ok' } as ButtonProps}
      onOk={() => pick(chosen)}
      onCancel={onCancel}
      // The dialog focuses its own first control once it is open, after the list's autoFocus (at once when motion is
      // reduced, so typing and Enter went to the close button): the quick picker takes the focus back then.
      afterOpenChange={(open) => {
        if (open && quick) select.current?.focus();
      }}
      destroyOnHidden
    >
      {classes.isPending ? (
        <Spin />
      ) : (
        <>
          <Select<number>
            ref={select}
            showSearch={{
              filterOption: (input, option) => (option?.search ?? '').includes(input.trim().toLowerCase()),
            }}
            style={{ width: '100%' }}
            value={classId}
            autoFocus={quick}
            defaultOpen={quick}
            onChange={(value) => {
              setClassId(value);
              if (quick) pick(classes.data?.find((item) => item.id === value));
            }}
            placeholder={t('identify.target.classPlaceholder')}
            aria-label={t('identify.target.class')}
            options={(classes.data ?? []).map((item) => ({
              ...classOption(item, t),
              search: classSearchText(item),
              label: (
                <span>
                  {classOption(item, t).label}
                  {item.taxon && (
                    <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontStyle: 'italic' }}>
                      {item.taxon.name}
                      {item.taxon.name_zh ? ` · ${item.taxon.name_zh}` : ''}
                    </Typography.Text>
                  )}
                </span>
              ),
            }))}
            data-testid="identify-target-class"
          />
          {quick && (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8, fontSize: 12 }}>
              {t('identify.keys.pickHint')}
            </Typography.Text>
          )}
        </>
      )}
    </Modal>
  );
}
