import { describe, expect, it } from 'vitest';
import { hashPassword, hashToken, newToken, verifyPassword } from '../src/security/password.ts';

describe('passwords and tokens', () => {
  it('hashes with scrypt N=2^17, r=8, p=1 by default parameters and verifies', async () => {
    const hash = await hashPassword('correct horse', 17);
    const [scheme, logN, r, p, salt, key] = hash.split('$');
    expect([scheme, logN, r, p]).toEqual(['scrypt', '17', '8', '1']);
    expect(Buffer.from(salt ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64url')).toHaveLength(64);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
  });

  it('salts every hash and refuses malformed stored values', async () => {
    const a = await hashPassword('same', 10);
    const b = await hashPassword('same', 10);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', 'plain-text')).toBe(false);
  });

  it('makes tokens of 256 random bits and hashes them with sha256', () => {
    const t = newToken();
    expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    expect(newToken()).not.toBe(t);
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
  });
});
