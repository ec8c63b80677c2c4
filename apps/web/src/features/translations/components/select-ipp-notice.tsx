import { ClockCircleOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** Instruments do not exist yet; this says so rather than offering a picker with nothing in it. */
export function SelectIppNotice() {
  const { t } = useTranslation();
  return (
    <Result
      icon={<ClockCircleOutlined />}
      title={t('translations.selectIppTitle')}
      subTitle={t('translations.selectIppPending')}
      data-testid="select-ipp-pending"
    />
  );
}
