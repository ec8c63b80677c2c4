import { afterEach, describe, expect, it } from 'vitest';
import { hashingStats } from '../src/security/password.ts';
import { body, buildTestApp, createTeam, createUser, PASSWORD, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';

const LOGIN = '/api/wyrbac/login/login';
const USER_INFO = '/api/wyrbac/login/user-info';

/** A sign-in through a proxy the server trusts (the test peer is loopback), which names the client `from`. */
const signIn = (env: TestEnv, username: string, password: string, from: string, token?: string) =>
  env.app.inject({
    method: 'POST',
    url: LOGIN,
    headers: { 'x-lang': 'en', 'x-forwarded-for': from, ...(token ? { 'x-token': token } : {}) },
    payload: { username, password },
  });

/** A sign-in straight from a client at `peer` (not a proxy the server trusts) that claims to be `claimed`. */
const signInFrom = (env: TestEnv, peer: string, username: string, password: string, claimed: string) =>
  env.app.inject({
    method: 'POST',
    url: LOGIN,
    remoteAddress: peer,
    headers: { 'x-lang': 'en', 'x-forwarded-for': claimed },
    payload: { username, password },
  });

const tokenOf = (res: Awaited<ReturnType<typeof signIn>>) => (body(res).data as { token: string }).token;
const randomAddress = () => `10.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(dialects)('sign-in under attack on %s (issue 37)', (dialect) => {
  let env: TestEnv;
  afterEach(async () => {
    const built = env as TestEnv | undefined;
    env = undefined as never;
    await built?.close();
  });

  it('lets 90% of legitimate sign-ins through a flood of unknown accounts and wrong passwords from many addresses', async () => {
    // A hash cost of 2^13 (8 MiB each; shipped: 2^17) and the shipped limits: two hashes at once, sixteen waiting.
    env = await buildTestApp(dialect, { config: { SCRYPT_LOG_N: 13, SCRYPT_CONCURRENCY: 2, SCRYPT_QUEUE: 16 } });
    const team = await createTeam(env, 'T');
    const owners = Array.from({ length: 20 }, (_, i) => `owner${i}`);
    const victims = ['victim0', 'victim1', 'victim2'];
    for (const account of [...owners, ...victims, 'holder']) await createUser(env, account, 'user', { groupId: team });
    const holder = (body(await signIn(env, 'holder', PASSWORD, '198.51.100.200')).data as { token: string }).token;

    // 40 flooders, each with one sign-in in flight at all times: three in four name a random unknown account, the
    // rest guess a known account's password; every attempt from a fresh address (a botnet behind the trusted proxy).
    let flooding = true;
    const floodAnswers: number[] = [];
    const flooders = Array.from({ length: 40 }, async (_, f) => {
      for (let i = 0; flooding; i++) {
        const known = (f + i) % 4 === 0;
        const account = known ? victims[(f + i) % victims.length]! : `ghost-${f}-${i}-${Math.random()}`;
        floodAnswers.push(body(await signIn(env, account, `guess-${f}-${i}`, randomAddress())).code);
      }
    });
    await sleep(300);

    // 20 legitimate sign-ins (each owner from its own address), one started every 250 ms during the flood, and a user
    // with a session going on with her work.
    const legitMs: number[] = [];
    const legit = await Promise.all(
      owners.map(async (owner, i) => {
        await sleep(i * 250);
        const started = performance.now();
        const answer = body(await signIn(env, owner, PASSWORD, `198.51.100.${i}`));
        legitMs.push(Math.round(performance.now() - started));
        return answer;
      }),
    );
    const working = body(await env.app.inject({ method: 'GET', url: USER_INFO, headers: { 'x-token': holder } }));
    flooding = false;
    await Promise.all(flooders);

    const succeeded = legit.filter((answer) => answer.code === 1000).length;
    console.log(
      `[${dialect}] legitimate sign-ins through the flood: ${succeeded}/20 (${legitMs.sort((a, b) => a - b).join(' ')} ms); ` +
        `flood attempts ${floodAnswers.length} ` +
        `(1001: ${floodAnswers.filter((c) => c === 1001).length}, 1003: ${floodAnswers.filter((c) => c === 1003).length})`,
    );
    expect(floodAnswers.length).toBeGreaterThan(100);
    expect(succeeded / legit.length).toBeGreaterThanOrEqual(0.9);
    expect(working.code).toBe(1000);
  });

  it('ignores X-Forwarded-For from a client on a private network: 34 forged addresses count as one', async () => {
    env = await buildTestApp(dialect);
    expect(env.config.TRUST_PROXY).toBe('loopback');
    await createUser(env, 'root', 'superadmin');
    const codes: number[] = [];
    for (let i = 0; i < 34; i++) {
      codes.push(body(await signInFrom(env, '192.168.1.50', 'root', `guess-${i}`, `203.0.113.${i}`)).code);
    }
    // Four failures are free for one address, then that address is held: the forged addresses changed nothing.
    expect(codes.filter((code) => code === 1001)).toHaveLength(4);
    expect(codes.slice(4).every((code) => code === 1003)).toBe(true);
    const right = await signInFrom(env, '192.168.1.50', 'root', PASSWORD, '198.51.100.99');
    expect(right.statusCode).toBe(429);
    expect(body(right).msg).toMatch(/^Too many failed sign-in attempts. Try again in \d+ seconds$/);
    // The owner on another machine of the same network still signs in.
    expect(body(await signInFrom(env, '192.168.1.60', 'root', PASSWORD, '203.0.113.1')).code).toBe(1000);
  });

  it('slows guessing of one account from many addresses, and never locks its owner out', async () => {
    env = await buildTestApp(dialect);
    await createUser(env, 'root', 'superadmin');
    // The owner signed in from her office a minute ago, and her session is open.
    const session = tokenOf(await signIn(env, 'root', PASSWORD, '198.51.100.7'));
    env.clock.advance(60_000);

    // 34 guesses, each from another address (a botnet, or a forged header through the proxy): the tenth failure holds
    // the account for untrusted attempts; per-address and per-pair limits alone let all 34 through.
    const codes: number[] = [];
    const checked = hashingStats.verified;
    for (let i = 0; i < 34; i++) codes.push(body(await signIn(env, 'root', `guess-${i}`, `203.0.113.${i}`)).code);
    expect(codes.slice(0, 9).every((code) => code === 1001)).toBe(true);
    expect(codes.slice(9).every((code) => code === 1003)).toBe(true);
    expect(hashingStats.verified - checked).toBe(10);
    // The right password from yet another address is refused during the wait ...
    const right = await signIn(env, 'root', PASSWORD, '203.0.113.200');
    expect(right.statusCode).toBe(429);
    expect(body(right).msg).toBe('Too many failed sign-in attempts. Try again in 30 seconds');
    // ... the owner holding a session signs in from a new place, and from her office without one.
    expect(body(await signIn(env, 'root', PASSWORD, '192.0.2.44', session)).code).toBe(1000);
    expect(body(await signIn(env, 'root', PASSWORD, '198.51.100.7')).code).toBe(1000);
    // Another account's session does not count for this one.
    await createUser(env, 'eve', 'user', { groupId: await createTeam(env, 'T') });
    const eve = tokenOf(await signIn(env, 'eve', PASSWORD, '203.0.113.250'));
    expect(body(await signIn(env, 'root', PASSWORD, '203.0.113.201', eve)).code).toBe(1003);

    // Slowed, not locked: one guess is checked per wait (and answered with the next wait), and the wait doubles after
    // ten more failures.
    const waits: number[] = [];
    for (let i = 0; i < 11; i++) {
      env.clock.advance(30_000 * 2 ** Math.floor(i / 10));
      const before = hashingStats.verified;
      expect(body(await signIn(env, 'root', `later-${i}`, `203.0.114.${i}`)).code).toBe(1003);
      const held = body(await signIn(env, 'root', `later-${i}b`, `203.0.115.${i}`));
      expect(held.code).toBe(1003);
      expect(hashingStats.verified - before).toBe(1);
      waits.push(Number(/in (\d+) seconds/.exec(held.msg ?? '')?.[1]));
    }
    expect(waits).toEqual([...Array<number>(9).fill(30), 60, 60]);
    // A success does not clear the account's count: the guesser gets no fresh budget when the owner signs in.
    expect(body(await signIn(env, 'root', PASSWORD, '198.51.100.7')).code).toBe(1000);
    expect(body(await signIn(env, 'root', 'after-owner', '203.0.116.1')).code).toBe(1003);
    // Once the account's failures are a day old, a new address may sign in at once.
    env.clock.advance(24 * 3_600_000);
    expect(body(await signIn(env, 'root', PASSWORD, '203.0.116.2')).code).toBe(1000);
  });

  it('answers an unknown account without hashing, and treats its name like a known one when it is busy', async () => {
    env = await buildTestApp(dialect, { config: { SCRYPT_LOG_N: 15 } });
    await createUser(env, 'alice', 'user', { groupId: await createTeam(env, 'T') });
    const before = hashingStats.verified;
    for (let i = 0; i < 5; i++) {
      const answer = body(await signIn(env, `nobody-${i}`, 'guess-pass', `203.0.113.${i}`));
      expect(answer).toMatchObject({ code: 1001, msg: 'Incorrect account or password' });
    }
    expect(hashingStats.verified).toBe(before);
    expect(body(await signIn(env, 'alice', 'guess-pass', '203.0.113.9')).code).toBe(1001);
    expect(hashingStats.verified).toBe(before + 1);

    // An unknown account takes about as long as a wrong password of a known one (medians of five, one at a time).
    const median = async (account: string, offset: number) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        expect(body(await signIn(env, account, 'guess-pass', `192.0.2.${offset + i}`)).code).toBe(1001);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const known = await median('alice', 0);
    const unknown = await median('nobody-else', 10);
    console.log(`[${dialect}] median sign-in, wrong password: ${known.toFixed(0)} ms; unknown account: ${unknown.toFixed(0)} ms`);
    expect(unknown).toBeGreaterThan(known / 3);
    expect(unknown).toBeLessThan(known * 3);

    // Three at once on one name: one is checked, the others are told the server is busy, whether the account exists
    // or not (a difference would tell which accounts exist).
    for (const account of ['alice', 'nobody']) {
      const answers = await Promise.all(
        [1, 2, 3].map((i) => signIn(env, account, `together-${i}`, `198.51.100.${i + (account === 'alice' ? 0 : 10)}`)),
      );
      const codes = answers.map((res) => body(res).code).sort();
      expect(codes).toEqual([1001, 1003, 1003]);
    }
  });

  it('lets trusted sign-ins through a full hash queue, where others are told to retry', async () => {
    // One hash at a time, nobody waiting: a check that finds the hasher busy is refused, unless it is trusted.
    env = await buildTestApp(dialect, { config: { SCRYPT_LOG_N: 16, SCRYPT_CONCURRENCY: 1, SCRYPT_QUEUE: 0 } });
    const team = await createTeam(env, 'T');
    for (const account of ['victim', 'owner', 'holder', 'stranger']) await createUser(env, account, 'user', { groupId: team });
    await signIn(env, 'owner', PASSWORD, '198.51.100.7');
    const session = tokenOf(await signIn(env, 'holder', PASSWORD, '198.51.100.8'));
    hashingStats.maxRunning = 0;
    const checked = hashingStats.verified;
    const guess = signIn(env, 'victim', 'guess-pass', '203.0.113.1');
    await until(() => hashingStats.maxRunning === 1 && hashingStats.verified === checked);
    const [stranger, owner, holder] = await Promise.all([
      signIn(env, 'stranger', PASSWORD, '192.0.2.1'),
      // From the address the account last signed in from; with a session of the account, from anywhere.
      signIn(env, 'owner', PASSWORD, '198.51.100.7'),
      signIn(env, 'holder', PASSWORD, '192.0.2.2', session),
    ]);
    expect(body(stranger)).toMatchObject({ code: 1003, msg: 'The server is busy. Try again in 5 seconds' });
    expect(body(owner).code).toBe(1000);
    expect(body(holder).code).toBe(1000);
    expect(body(await guess).code).toBe(1001);
  });
});

async function until(condition: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(2);
  }
}
