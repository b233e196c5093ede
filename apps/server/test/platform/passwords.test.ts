import { describe, expect, it } from 'vitest';
import { dummyPasswordHash, hashPassword, md5Hex, verifyPassword } from '../../src/platform/passwords.js';

describe('passwords', () => {
  it('checks an unknown name against a dummy hash of the same cost as a real one, which nothing matches (issue 8)', async () => {
    const parametersOf = (stored: string) => stored.split('$').slice(0, 4).join('$');
    const dummy = await dummyPasswordHash();
    // Same scheme, N, r and p: the check of an unknown name costs what a wrong password costs, so time tells nothing.
    expect(parametersOf(dummy)).toBe(parametersOf(await hashPassword(md5Hex('Admin@123'))));
    expect(await dummyPasswordHash()).toBe(dummy);
    expect(await verifyPassword(md5Hex('Admin@123'), dummy)).toBe(false);
    expect(await verifyPassword(md5Hex(''), dummy)).toBe(false);
  });
});
