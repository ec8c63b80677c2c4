import { CATEGORY, type Category, type Created } from '@ipp/contracts';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveFolder } from '../api/save-folder';
import { takesStation } from '../utils/list-query';

/** The node a new class is created under, for the messages: HI under site images, else the category. */
export function useParentTitle(): (category: Category) => string {
  const { t } = useTranslation();
  return (category) => (category.id === CATEGORY.SITE ? 'HI' : t(`identify.category.${category.key}`));
}

/** Creates a folder (an HI class under site images) and says so (spec §8 "New Class {name} under {parent} successful"). */
export function useCreateClass() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useSaveFolder();
  const parentTitle = useParentTitle();
  return async (category: Category, title: string, scope: { groupId?: number; ippId?: number }): Promise<Created> => {
    const parent = parentTitle(category);
    const created = await save.mutateAsync({
      title,
      category_id: category.id,
      ipp_id: takesStation(category.id) ? scope.ippId : undefined,
      group_id: scope.groupId,
      parent,
    });
    void message.success(t('identify.created', { name: created.title, parent }));
    return created;
  };
}
