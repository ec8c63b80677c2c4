import { useQueryClient } from '@tanstack/react-query';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveUserSettings } from '@/api/save-user-settings';
import { useComponentSize } from '@/hooks/use-component-size';
import { COMPONENT_SIZES, setComponentSize, type ComponentSize } from '@/lib/component-size';

export function SizeSwitch() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const size = useComponentSize();
  const change = (next: ComponentSize) => {
    setComponentSize(next);
    // The choice follows the account (POST /setting/save-user); a failure there has had its toast.
    void saveUserSettings(queryClient, { size: next }).catch(() => undefined);
  };
  return (
    <Segmented<ComponentSize>
      data-testid="size-switch"
      aria-label={t('size.label')}
      value={size}
      options={COMPONENT_SIZES.map((value) => ({ value, label: t(`size.${value}`) }))}
      onChange={change}
    />
  );
}
