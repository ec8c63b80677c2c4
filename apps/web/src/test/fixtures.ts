import { DEFAULT_IPP_CONFIG, type Ipp } from '@ipp/contracts';

/** An instrument as the server answers it; override what a test is about. */
export function ippFixture(overrides: Partial<Ipp> = {}): Ipp {
  return {
    id: 7,
    dev_id: '21005',
    site_name: 'Yellow Sea buoy',
    country: 'CN',
    longitude: 121.5,
    latitude: 36.1,
    group_id: 4,
    group_name: 'North',
    serial_number: 'SN-0001',
    pixel_size_um: null,
    time_zone: null,
    online: false,
    last_online_at: null,
    wiper_status: null,
    config: { ...DEFAULT_IPP_CONFIG },
    config_version: 1,
    applied_config: null,
    pending: [],
    measured: null,
    online_hours: 0,
    today_images: 0,
    total_images: 0,
    last_image_at: null,
    latest_roi: null,
    created_at: 1,
    ...overrides,
  };
}
