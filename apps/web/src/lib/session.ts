import type { Role } from '@ipp/contracts';
import { STORAGE_KEYS } from './storage-keys';
import { readStorage, writeStorage } from './storage';

/** The signed-in state kept in localStorage; role stays a string because storage can hold anything. */
export interface Session {
  token: string | null;
  role: string | null;
  demo: boolean;
}

const SESSION_KEYS: readonly string[] = [STORAGE_KEYS.token, STORAGE_KEYS.role, STORAGE_KEYS.demo];
const listeners = new Set<() => void>();
let snapshot: Session = { token: null, role: null, demo: false };
let snapshotKey = '';

/** Stable object between changes, as useSyncExternalStore requires. */
export function getSession(): Session {
  const token = readStorage(STORAGE_KEYS.token) || null;
  const role = readStorage(STORAGE_KEYS.role) || null;
  const demo = readStorage(STORAGE_KEYS.demo) === '1';
  const key = JSON.stringify([token, role, demo]);
  if (key !== snapshotKey) {
    snapshotKey = key;
    snapshot = { token, role, demo };
  }
  return snapshot;
}

export function getToken(): string | null {
  return getSession().token;
}

/** Starts a session; the idle clock restarts too, so a stale time from an old session cannot sign it out. */
export function setSession(next: { token: string; role: Role; demo: boolean }): void {
  writeStorage(STORAGE_KEYS.token, next.token);
  writeStorage(STORAGE_KEYS.role, next.role);
  writeStorage(STORAGE_KEYS.demo, next.demo ? '1' : null);
  writeStorage(STORAGE_KEYS.lastActivity, String(Date.now()));
  emit();
}

/** Keeps role and demo flag in step with user-info (the server may have changed them). */
export function updateSession(patch: { role?: Role; demo?: boolean }): void {
  if (patch.role !== undefined) writeStorage(STORAGE_KEYS.role, patch.role);
  if (patch.demo !== undefined) writeStorage(STORAGE_KEYS.demo, patch.demo ? '1' : null);
  emit();
}

export function clearSession(): void {
  writeStorage(STORAGE_KEYS.token, null);
  writeStorage(STORAGE_KEYS.role, null);
  writeStorage(STORAGE_KEYS.demo, null);
  emit();
}

function emit(): void {
  for (const listener of listeners) listener();
}

// Another tab signing in or out changes this tab's session too.
function onStorage(event: StorageEvent): void {
  if (event.key === null || SESSION_KEYS.includes(event.key)) emit();
}

export function subscribeSession(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}
