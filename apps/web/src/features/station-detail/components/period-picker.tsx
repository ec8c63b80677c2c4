import { App, Segmented, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { needsConfirmation, PERIODS, type Period } from '../utils/periods';

// The e2e suite clicks every confirmation through this one test id.
const okButtonProps = { 'data-testid': 'confirm-ok' } as ButtonProps;

/** The period of the data (spec §9); "all" only after the user confirms the slow query (spec §8). */
export function PeriodPicker({ value, onChange }: { value: Period; onChange: (period: Period) => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();

  const choose = (period: Period) => {
    if (!needsConfirmation(period)) {
      onChange(period);
      return;
    }
    modal.confirm({
      title: t('detail.allConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps,
      onOk: () => onChange(period),
    });
  };

  return (
    <Segmented<Period>
      aria-label={t('detail.period')}
      value={value}
      onChange={choose}
      options={PERIODS.map((period) => ({
        value: period,
        label: <span data-testid={`detail-period-${period}`}>{t(`detail.periods.${period}`)}</span>,
      }))}
    />
  );
}
