import { vi } from 'vitest';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { jsonResponse, okEnvelope } from './render';

export type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/** What the console asks for at start, answered as a fresh installation would. */
export const START_UP: Record<string, Handler> = {
  '/api/setting/get-set-init': () =>
    okEnvelope({ site_title: '', logo: '', default_language: 'zh', idle_minutes: 30, map_tile_url: '', wall_max: 100 }),
  '/api/get-lang/lang': () => okEnvelope([]),
  '/api/setting/get-role': () => okEnvelope({ roles: [], routes: [] }),
  // The header's alarm count: none.
  '/api/alarm/summary': () =>
    okEnvelope({ active: 0, acknowledged: 0, pending: 0, by_severity: { critical: 0, major: 0, minor: 0, warning: 0 } }),
  // The latest open alarms (the bell's drop-down, the overview's card): none.
  '/api/alarm/list': () => pageEnvelope([], 0),
  // The live event stream: open, and quiet (tests that need events answer it themselves).
  '/api/events': () =>
    new Response(new ReadableStream({ start: () => undefined }), {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
    }),
};

/** Answers fetch by pathname (handlers first, then START_UP); anything else fails like a dead network. */
export function mockServer(routes: Record<string, Handler>) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const handler = routes[url.pathname] ?? START_UP[url.pathname];
    if (!handler) throw new TypeError(`unexpected fetch ${url.pathname}`);
    return handler(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export type FetchMock = ReturnType<typeof mockServer>;

/** Every call to a path, as [url, init]. */
export function callsTo(fetchMock: FetchMock, pathname: string): { url: URL; init: RequestInit | undefined }[] {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), init }))
    .filter(({ url }) => url.pathname === pathname);
}

/** Parsed JSON body of the last call to a path. */
export function lastBody(fetchMock: FetchMock, pathname: string): unknown {
  const body = callsTo(fetchMock, pathname).at(-1)?.init?.body;
  return typeof body === 'string' ? (JSON.parse(body) as unknown) : body;
}

export function failField(code: number, message: string, status: number, field: string): Response {
  return jsonResponse({ code, data: message, msg: message, model: { field }, count: 0, index: null }, status);
}

export function pageEnvelope(items: unknown[], count = items.length): Response {
  return jsonResponse({ code: 1000, data: items, model: null, count, index: null });
}

export function signIn(role: string, demo = false): void {
  localStorage.setItem(STORAGE_KEYS.token, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.role, role);
  if (demo) localStorage.setItem(STORAGE_KEYS.demo, '1');
}

export const USER_INFO = {
  id: 1,
  account: 'admin',
  name: 'Root',
  roles: ['superadmin'],
  role: 'superadmin',
  avatar: '',
  group_id: null,
  group: null,
  demo: false,
  language: null,
  size: null,
};
