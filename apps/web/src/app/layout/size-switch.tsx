import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useComponentSize } from '@/hooks/use-component-size';
import { COMPONENT_SIZES, setComponentSize, type ComponentSize } from '@/lib/component-size';

export function SizeSwitch() {
  const { t } = useTranslation();
  const size = useComponentSize();
  return (
    <Segmented<ComponentSize>
      data-testid="size-switch"
      aria-label={t('size.label')}
      value={size}
      options={COMPONENT_SIZES.map((value) => ({ value, label: t(`size.${value}`) }))}
      onChange={setComponentSize}
    />
  );
}
