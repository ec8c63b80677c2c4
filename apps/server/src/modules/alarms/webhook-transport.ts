import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { WebhookFailureKind } from '@ipp/contracts';

/*
 * How a webhook notice leaves the console (issue 37): only to addresses outside the host and its networks, checked
 * after name resolution on the very address the socket connects to, with a short deadline, no redirect followed, and
 * failures told as a class, never as what the receiver answered.
 */

export class WebhookFailure extends Error {
  constructor(readonly kind: WebhookFailureKind) {
    super(kind);
  }
}

/** Host names (or literal addresses) an operator allows even though they are internal (WEBHOOK_ALLOW_HOSTS). */
export interface AddressPolicy {
  allowHosts: ReadonlySet<string>;
}

export const addressPolicy = (allowHosts: string | undefined): AddressPolicy => ({
  allowHosts: new Set(
    (allowHosts ?? '')
      .split(',')
      .map((h) => bareHost(h.trim()))
      .filter((h) => h !== ''),
  ),
});

/** A URL's host as compared and resolved: lower case, no IPv6 brackets, no trailing dot. */
export function bareHost(hostname: string) {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '');
}

const blocked = new net.BlockList();
// Unspecified, "this network", private, shared (CGNAT), loopback, link-local (cloud metadata), IETF, documentation,
// 6to4 relay, benchmarking, multicast, reserved and broadcast.
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
// Unspecified, loopback and the deprecated IPv4-compatible block (::/96), discard, documentation, unique local
// (fc00::/7), link-local, site-local and multicast. IPv4-mapped addresses (::ffff:a.b.c.d) are judged by the IPv4 list.
for (const [prefix, bits] of [
  ['::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** The 8 groups of an IPv6 address (a dotted IPv4 tail included); null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (net.isIPv6(address) === false) return null;
  let text = address.replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -tail[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = part(head);
  const right = rest === undefined ? [] : part(rest);
  const groups = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** Whether an address (IPv4 or IPv6, as resolved or written) is one webhooks may not reach. */
export function forbiddenAddress(address: string): boolean {
  const bare = bareHost(address);
  const family = net.isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true;
  if (blocked.check(bare.replace(/%.*$/, ''), 'ipv6')) return true;
  const g = ipv6Groups(bare);
  if (!g) return true;
  // IPv4 carried inside IPv6: mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return blocked.check(ipv4Of(g[6]!, g[7]!), 'ipv4');
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return blocked.check(ipv4Of(g[6]!, g[7]!), 'ipv4');
  if (g[0] === 0x2002) return blocked.check(ipv4Of(g[1]!, g[2]!), 'ipv4');
  return false;
}

const hostAllowed = (host: string, policy: AddressPolicy) => policy.allowHosts.has(host);

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the socket: resolves the name and refuses it when any of its addresses is forbidden, so the address
 * checked is the address connected to (no second resolution in between to be rebound).
 */
function checkedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((a) => forbiddenAddress(a.address)))
      return callback(new WebhookFailure('address not allowed'), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/**
 * Whether a URL may be saved: its host is allowed by name, or is an address outside the host's networks, or a name
 * none of whose addresses is inside them. A name that does not resolve now is accepted (each delivery checks again).
 */
export async function webhookUrlAllowed(target: string, policy: AddressPolicy, timeoutMs = 3000): Promise<boolean> {
  const host = bareHost(new URL(target).hostname);
  if (hostAllowed(host, policy)) return true;
  if (net.isIP(host)) return !forbiddenAddress(host);
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    dns.promises.lookup(host, { all: true }).catch(() => []),
    new Promise<dns.LookupAddress[]>((resolve) => {
      timer = setTimeout(() => resolve([]), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  return !addresses.some((a) => forbiddenAddress(a.address));
}

function failureOf(error: unknown): WebhookFailure {
  if (error instanceof WebhookFailure) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE') return new WebhookFailure('refused');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return new WebhookFailure('unknown host');
  if (/CERT|TLS|SSL/.test(code)) return new WebhookFailure('TLS error');
  return new WebhookFailure('network error');
}

/**
 * POSTs a notice; resolves on a 2xx answer, else throws a WebhookFailure. The whole try (resolution, connection and
 * the answer's headers) has `timeoutMs`; redirects are not followed (a 3xx is an HTTP error); no connection is reused.
 */
export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  policy: AddressPolicy,
  timeoutMs: number,
): Promise<void> {
  const url = new URL(target);
  const host = bareHost(url.hostname);
  const allowed = hostAllowed(host, policy);
  // A literal address is connected to without a lookup: it is checked here.
  if (!allowed && net.isIP(host) && forbiddenAddress(host)) return Promise.reject(new WebhookFailure('address not allowed'));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new WebhookFailure('address not allowed'));
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<void>((resolve, reject) => {
    const request = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
      ...(allowed ? {} : { lookup: checkedLookup as unknown as typeof dns.lookup }),
    });
    const timer = setTimeout(() => request.destroy(new WebhookFailure('timeout')), timeoutMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      response.resume();
      response.on('error', () => undefined);
      request.destroy();
      const status = response.statusCode ?? 0;
      if (status >= 200 && status <= 299) resolve();
      else reject(new WebhookFailure('HTTP error'));
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(failureOf(error));
    });
    request.end(body);
  });
}
