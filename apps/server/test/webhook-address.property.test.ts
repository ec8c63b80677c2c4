import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressPolicy, forbiddenAddress, webhookUrlAllowed } from '../src/modules/alarms/webhook-transport.ts';

/** Issue 37: the address a webhook URL names is judged after the URL parser's normalisation, in every spelling. */

const none = addressPolicy('');

/** IPv4 ranges a webhook may not reach: [first address, prefix bits]. */
const INSIDE_V4: [number, number][] = [
  [0x00000000, 8], // this network, 0.0.0.0
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 (shared, CGNAT)
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local, cloud metadata
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
  [0xe0000000, 4], // multicast
  [0xf0000000, 4], // reserved, broadcast
];
/** First octets of public unicast space well away from every special range. */
const PUBLIC_FIRST = [1, 8, 9, 11, 23, 45, 52, 64, 93, 104, 128, 151, 185, 210, 220];

const insideV4 = fc
  .tuple(fc.constantFrom(...INSIDE_V4), fc.integer({ min: 0, max: 0xffffffff }))
  .map(([[base, bits], r]) => (base | (bits === 32 ? 0 : r >>> bits)) >>> 0);
const publicV4 = fc
  .tuple(fc.constantFrom(...PUBLIC_FIRST), fc.integer({ min: 0, max: 0xffffff }))
  .map(([first, rest]) => ((first << 24) | rest) >>> 0);

const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255] as const;
const part = (value: number, radix: 'dec' | 'hex' | 'HEX' | 'oct') =>
  radix === 'dec'
    ? String(value)
    : radix === 'oct'
      ? `0${value.toString(8)}`
      : radix === 'hex'
        ? `0x${value.toString(16)}`
        : `0X${value.toString(16).toUpperCase()}`;
const radix = fc.constantFrom('dec' as const, 'hex' as const, 'HEX' as const, 'oct' as const);
const hex4 = (n: number) => `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;

/** The ways one IPv4 address may be written in a URL's host. */
const spelling = (n: number) =>
  fc.oneof(
    fc.tuple(radix, radix, radix, radix).map((r) =>
      octets(n)
        .map((o, i) => part(o, r[i]!))
        .join('.'),
    ),
    radix.map((r) => part(n, r)),
    fc.tuple(radix, radix, radix).map(([a, b, c]) => {
      const [o1, o2, o3, o4] = octets(n);
      return `${part(o1, a)}.${part(o2, b)}.${part((o3 << 8) | o4, c)}`;
    }),
    fc.tuple(radix, radix).map(([a, b]) => `${part(octets(n)[0], a)}.${part(n & 0xffffff, b)}`),
    fc.constantFrom(`[::ffff:${octets(n).join('.')}]`, `[::ffff:${hex4(n)}]`, `[0:0:0:0:0:ffff:${octets(n).join('.')}]`),
    fc.constant(`${octets(n).join('.')}.`),
  );

const allowed = (host: string) => webhookUrlAllowed(`http://${host}:8080/hook`, none);

describe('webhook addresses (issue 37)', () => {
  it('refuses every spelling of a loopback, private, link-local, multicast or unspecified IPv4 address', async () => {
    await fc.assert(
      fc.asyncProperty(
        insideV4.chain((n) => spelling(n).map((host) => ({ n, host }))),
        async ({ host }) => {
          expect(await allowed(host)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts every spelling of a public IPv4 address', async () => {
    await fc.assert(
      fc.asyncProperty(
        publicV4.chain((n) => spelling(n)),
        async (host) => {
          expect(await allowed(host)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses IPv6 loopback, unspecified, unique-local, link-local and multicast, and inside IPv4 carried in IPv6', async () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((g) => g.toString(16));
    const tail = fc.array(group, { minLength: 1, maxLength: 6 }).map((g) => g.join(':'));
    const prefixed = (first: fc.Arbitrary<number>) =>
      fc.tuple(first, tail).map(([f, t]) => `${f.toString(16)}:${t.split(':').length < 7 ? ':' : ''}${t}`);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom('::', '::1', '0:0:0:0:0:0:0:1', '0000::0001'),
          prefixed(fc.integer({ min: 0xfc00, max: 0xfdff })),
          prefixed(fc.integer({ min: 0xfe80, max: 0xfebf })),
          prefixed(fc.integer({ min: 0xff00, max: 0xffff })),
          insideV4.map((n) => `::ffff:${hex4(n)}`),
          insideV4.map((n) => `64:ff9b::${hex4(n)}`),
          insideV4.map((n) => `2002:${hex4(n)}::1`),
        ),
        async (address) => {
          expect(forbiddenAddress(address)).toBe(true);
          expect(await allowed(`[${address}]`)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts public IPv6, and a host the operator allows by name', async () => {
    for (const address of ['2001:4860:4860::8888', '2606:4700:4700::1111', `2002:${hex4(0x08080808)}::1`, '::ffff:808:808'])
      expect(await allowed(`[${address}]`), address).toBe(true);
    expect(await webhookUrlAllowed('http://127.0.0.1:9/x', addressPolicy(' receiver.lan , 127.0.0.1 '))).toBe(true);
    expect(await webhookUrlAllowed('http://Receiver.LAN.:9/x', addressPolicy('receiver.lan'))).toBe(true);
    // The allow-list names hosts: another spelling of an allowed address is another host.
    expect(await webhookUrlAllowed('http://localhost:9/x', addressPolicy('127.0.0.1'))).toBe(false);
  });
});
