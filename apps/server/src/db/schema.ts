import type { Generated } from 'kysely';
import type { Role } from '@ipp/contracts';

/** Timestamps are integer milliseconds since the epoch on both dialects. */
export interface TeamsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  account: string;
  name: string;
  password_hash: string;
  phone: string;
  email: string;
  group_id: number | null;
  role: Role;
  avatar: string;
  /** 1 for the read-only demo account. */
  is_demo: number;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  last_seen_at: number;
  ended_at: number | null;
  /** logout | displaced | idle | expired | revoked */
  end_reason: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  account: string;
  at: number;
}

export interface SettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: number;
}

export interface TranslationsTable {
  key: string;
  zh: string | null;
  en: string | null;
  updated_at: number;
}

export interface IppsTable {
  id: Generated<number>;
  /** Site ID; the instrument's identity on the device protocol. */
  dev_id: string;
  site_name: string;
  country: string;
  longitude: number | null;
  latitude: number | null;
  group_id: number;
  serial_number: string;
  /** JSON of the desired configuration (IppConfig). */
  config: string;
  /** sha256 of the device key; the key itself is shown once and never stored. */
  device_key_hash: string;
  last_online_at: number | null;
  wiper_status: string | null;
  created_at: number;
  updated_at: number;
}

export interface UserViewsTable {
  user_id: number;
  group_id: number | null;
  /** JSON array of followed instrument ids, in the user's order. */
  ipp_ids: string;
  updated_at: number;
}

export interface Database {
  teams: TeamsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  settings: SettingsTable;
  translations: TranslationsTable;
  ipps: IppsTable;
  user_views: UserViewsTable;
}
