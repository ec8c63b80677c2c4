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

export interface Database {
  teams: TeamsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  settings: SettingsTable;
  translations: TranslationsTable;
}
