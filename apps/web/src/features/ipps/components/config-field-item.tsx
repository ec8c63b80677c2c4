import { Form, InputNumber, Space, Tag, Tooltip } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatConfigValue, isRecommended, limitProblem, type ConfigField, type LimitProblem } from '../utils/config-fields';
import type { ConfigState } from '../utils/telemetry';

function limitMessage(t: TFunction, field: string, problem: LimitProblem): string {
  switch (problem.kind) {
    case 'required':
      return t('ipps.limit.required', { field });
    case 'integer':
      return t('ipps.limit.integer', { field });
    case 'min':
      return t('ipps.limit.min', { field, min: problem.min });
    case 'max':
      return t('ipps.limit.max', { field, max: problem.max });
  }
}

/** "1–7" or "700 or 800": the spec §5 recommendation, '' when there is none. */
function recommendation(t: TFunction, config: ConfigField): string {
  const hint = config.recommended;
  if (!hint) return '';
  if (hint.values) return hint.values.map((value) => formatConfigValue(config, value)).join(t('ipps.hint.or'));
  return `${hint.min ?? config.min}–${hint.max ?? config.max}`;
}

function hintText(t: TFunction, config: ConfigField): string {
  const recommended = recommendation(t, config);
  const parts = [
    recommended &&
      (config.recommended?.values
        ? t('ipps.hint.recommendedValues', { values: recommended })
        : t('ipps.hint.recommendedRange', {
            min: config.recommended?.min ?? config.min,
            max: config.recommended?.max ?? config.max,
          })),
    t('ipps.hint.default', { value: formatConfigValue(config, config.defaultValue) }),
    t('ipps.hint.allowed', { min: config.min, max: config.max }),
  ];
  return parts.filter(Boolean).join(t('ipps.hint.separator'));
}

/** Whether the instrument runs the saved value yet (none while it has never reported its configuration). */
function StateTag({ configKey, state }: { configKey: string; state: ConfigState }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(`ipps.state.${state}Hint`)}>
      <Tag color={state === 'applied' ? 'success' : 'warning'} data-testid={`ipp-config-state-${configKey}`} data-state={state}>
        {t(`ipps.state.${state}`)}
      </Tag>
    </Tooltip>
  );
}

/**
 * One instrument setting: the server's hard limits refuse a value at the field; the spec's
 * recommendation only warns, so an unusual but valid value can still be saved.
 */
export function ConfigFieldItem({ config, state }: { config: ConfigField; state: ConfigState | null }) {
  const { t } = useTranslation();
  const label = t(`ipps.config.${config.key}`);
  const rules: Rule[] = [
    {
      validator: async (_, value: number | null | undefined) => {
        const problem = limitProblem(config, value);
        if (problem) throw new Error(limitMessage(t, label, problem));
      },
    },
    {
      warningOnly: true,
      validator: async (_, value: number | null | undefined) => {
        if (typeof value === 'number' && !limitProblem(config, value) && !isRecommended(config, value)) {
          throw new Error(t('ipps.hint.outside', { recommended: recommendation(t, config) }));
        }
      },
    },
  ];
  return (
    <Form.Item
      name={['config', config.key]}
      label={
        state ? (
          <Space size={4}>
            {label}
            <StateTag configKey={config.key} state={state} />
          </Space>
        ) : (
          label
        )
      }
      required
      extra={hintText(t, config)}
      rules={rules}
    >
      {/* No min/max here: the input would clamp a wrong value silently instead of saying why it is wrong. */}
      <InputNumber<number>
        step={10 ** -config.decimals}
        suffix={config.unitKey ? t(config.unitKey) : undefined}
        style={{ width: '100%' }}
        data-testid={`ipp-config-${config.key}`}
      />
    </Form.Item>
  );
}
