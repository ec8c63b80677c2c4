import { Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCountries } from '@/hooks/use-countries';
import {
  DEV_ID_MAX,
  isValidDevId,
  LATITUDE,
  LONGITUDE,
  PIXEL_SIZE_UM,
  SERIAL_NUMBER_MAX,
  SITE_NAME_MAX,
} from '../utils/ipp-form-values';
import { offsetLabel, zoneOffsetMinutes } from '@/lib/time-zones';

export interface TeamChoice {
  value: number;
  label: string;
}

interface GeneralFieldsProps {
  teams: readonly TeamChoice[];
  teamsLoading: boolean;
  /** An administrator's instruments stay in its own team. */
  teamFixed: boolean;
}

const COL = { xs: 24, md: 12, xl: 8 } as const;

/** The registry fields of spec §3 General: what the instrument is and where it stands. */
export function GeneralFields({ teams, teamsLoading, teamFixed }: GeneralFieldsProps) {
  const { t } = useTranslation();
  const countries = useCountries();
  const coordinateRule = (labelKey: string, range: { min: number; max: number }) => ({
    validator: async (_: unknown, value: number | null | undefined) => {
      if (value !== null && value !== undefined && (value < range.min || value > range.max)) {
        throw new Error(t('ipps.coordinateRange', { field: t(labelKey), ...range }));
      }
    },
  });

  return (
    <Row gutter={16}>
      <Col {...COL}>
        <Form.Item
          name="dev_id"
          label={t('ipps.devId')}
          extra={t('ipps.devIdHint')}
          rules={[
            { required: true, whitespace: true, message: t('ipps.devIdRequired') },
            { max: DEV_ID_MAX, message: t('validation.maxLength', { max: DEV_ID_MAX }) },
            {
              validator: async (_, value: string | undefined) => {
                const trimmed = value?.trim() ?? '';
                if (trimmed && trimmed.length <= DEV_ID_MAX && !isValidDevId(trimmed)) throw new Error(t('ipps.devIdInvalid'));
              },
            },
          ]}
        >
          <Input autoComplete="off" data-testid="ipp-dev_id" />
        </Form.Item>
      </Col>
      <Col {...COL}>
        <Form.Item
          name="site_name"
          label={t('ipps.siteName')}
          rules={[{ max: SITE_NAME_MAX, message: t('validation.maxLength', { max: SITE_NAME_MAX }) }]}
        >
          <Input autoComplete="off" data-testid="ipp-site_name" />
        </Form.Item>
      </Col>
      <Col {...COL}>
        <Form.Item
          name="serial_number"
          label={t('ipps.serialNumber')}
          rules={[{ max: SERIAL_NUMBER_MAX, message: t('validation.maxLength', { max: SERIAL_NUMBER_MAX }) }]}
        >
          <Input autoComplete="off" data-testid="ipp-serial_number" />
        </Form.Item>
      </Col>
      <Col {...COL}>
        <Form.Item name="country" label={t('ipps.country')}>
          {/* Not virtual: about 250 options are cheap, and every one can be found by scrolling or by the browser. */}
          <Select<string>
            virtual={false}
            showSearch={{
              filterOption: (input, option) => {
                const needle = input.trim().toLowerCase();
                return (
                  String(option?.label ?? '')
                    .toLowerCase()
                    .includes(needle) || String(option?.value ?? '').toLowerCase() === needle
                );
              },
            }}
            options={[
              { value: '', label: countries.others },
              ...countries.list.map((country) => ({ value: country.code, label: country.name })),
            ]}
            data-testid="ipp-country"
          />
        </Form.Item>
      </Col>
      <Col {...COL}>
        <Form.Item name="longitude" label={t('ipps.longitude')} rules={[coordinateRule('ipps.longitude', LONGITUDE)]}>
          <InputNumber<number> step={0.0001} suffix="°" style={{ width: '100%' }} data-testid="ipp-longitude" />
        </Form.Item>
      </Col>
      <Col {...COL}>
        <Form.Item name="latitude" label={t('ipps.latitude')} rules={[coordinateRule('ipps.latitude', LATITUDE)]}>
          <InputNumber<number> step={0.0001} suffix="°" style={{ width: '100%' }} data-testid="ipp-latitude" />
        </Form.Item>
      </Col>
      <Col {...COL}>
        <Form.Item name="group_id" label={t('ipps.team')} rules={[{ required: true, message: t('messages.selectTeam') }]}>
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            loading={teamsLoading}
            disabled={teamFixed}
            placeholder={t('ipps.teamPlaceholder')}
            options={[...teams]}
            data-testid="ipp-team"
          />
        </Form.Item>
      </Col>
      <Col {...COL}>
        <Form.Item
          name="pixel_size_um"
          label={t('ipps.pixelSize')}
          tooltip={t('ipps.pixelSizeHelp', PIXEL_SIZE_UM)}
          rules={[coordinateRule('ipps.pixelSize', PIXEL_SIZE_UM)]}
        >
          <InputNumber<number>
            step={0.1}
            min={0}
            suffix={t('ipps.pixelSizeUnit')}
            placeholder={t('ipps.pixelSizeUnset')}
            style={{ width: '100%' }}
            data-testid="ipp-pixel_size_um"
          />
        </Form.Item>
      </Col>
      <Col {...COL}>
        <Form.Item name="time_zone" label={t('time.zoneLabel')} tooltip={t('time.zoneHint')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('time.zonePlaceholder')}
            options={timeZoneOptions()}
            data-testid="ipp-time_zone"
          />
        </Form.Item>
      </Col>
    </Row>
  );
}

let zones: { value: string; label: string }[] | null = null;

/** Every IANA zone the browser knows, with its offset now ("Asia/Shanghai (UTC+8)"); read once. */
function timeZoneOptions() {
  if (zones) return zones;
  const now = Date.now();
  const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  zones = names.map((name) => ({ value: name, label: `${name} (${offsetLabel(zoneOffsetMinutes(now, name))})` }));
  return zones;
}
