/**
 * TOTP two-factor sign-in (ASVS 4.3.1): enrolment, the one-time recovery codes and the short-lived
 * challenge that joins the two steps of a login. Secrets are encrypted with AES-256-GCM under a key
 * kept in the settings table (created by the first instance that needs it, like the upload signing
 * secret), so a copy of the users' rows alone does not give the authenticators away.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../db/client.js';
import { loginChallenges, userRecoveryCodes, userTotp } from '../db/schema/index.js';
import { createSecretSealer } from './sealed-secrets.js';
import { getSetting, setSetting, settingCreatedOnce } from './settings.js';

/** The issuer shown in the authenticator app next to the account name. */
export const TOTP_ISSUER = 'Campus Ops';
/** RFC 6238 defaults every authenticator app understands. */
const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** One step either side of now is accepted, for clocks a little apart. */
const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** The second step must follow the password within five minutes. */
export const LOGIN_CHALLENGE_TTL_MS = 5 * 60_000;

const KEY_SETTING = 'auth.totpKey';
/** The company's policy (ASVS 4.3.1): true = company administrators sign in only with an authenticator. */
const REQUIRED_SETTING = 'auth.twoFactorRequired';
/** Recovery codes avoid letters that read like digits (no i, l, o, 0, 1). */
const RECOVERY_CHARS = 'abcdefghjkmnpqrstuvwxyz23456789';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The deployment's 32-byte encryption key: created once (the first instance wins), then read. */
async function encryptionKey(db: Database): Promise<Buffer> {
  return Buffer.from(await settingCreatedOnce(db, KEY_SETTING, () => randomBytes(32).toString('base64url')), 'base64url');
}

/** Encrypts a base32 secret as `v1.<iv>.<tag>.<ciphertext>` (base64url), with AES-256-GCM. */
export function encryptSecret(key: Buffer, base32: string): string {
  return createSecretSealer(key).seal(base32);
}

/** Decrypts what encryptSecret wrote; throws if it was altered or another key wrote it. */
export function decryptSecret(key: Buffer, stored: string): string {
  const base32 = createSecretSealer(key).unseal(stored);
  if (base32 === undefined) throw new Error('the TOTP secret was altered or sealed under another key');
  return base32;
}

function totpOf(base32: string, label = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, secret: Secret.fromBase32(base32), ...TOTP_PARAMS });
}

/** The time step a six-digit code answers within the window around `now`, or undefined. */
function matchingStep(base32: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = totpOf(base32);
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp: now.getTime() }) + delta;
}

/** Whether the account has a confirmed authenticator, and how many recovery codes are left. */
export async function twoFactorStatus(db: Database, userId: number): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const [row] = await db.select({ confirmedAt: userTotp.confirmedAt }).from(userTotp).where(eq(userTotp.userId, userId));
  if (!row?.confirmedAt) return { enabled: false, recoveryCodesLeft: 0 };
  const [left] = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return { enabled: true, recoveryCodesLeft: Number(left?.n ?? 0) };
}

/**
 * Starts an enrolment: a fresh 160-bit secret replaces any unconfirmed one. Answers the secret and
 * its otpauth:// address (the QR code's content) once; afterwards only the encrypted form exists.
 */
export async function beginTotpEnrolment(db: Database, user: { id: number; loginName: string }, now: Date): Promise<{ secret: string; uri: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const secretEncrypted = encryptSecret(await encryptionKey(db), secret);
  await db
    .insert(userTotp)
    .values({ userId: user.id, secretEncrypted, createdAt: now })
    .onConflictDoUpdate({ target: userTotp.userId, set: { secretEncrypted, createdAt: now, confirmedAt: null, lastStep: null }, setWhere: isNull(userTotp.confirmedAt) });
  return { secret, uri: totpOf(secret, user.loginName).toString() };
}

/** New one-time recovery codes (`xxxxx-xxxxx`), replacing the old ones; answered once, stored hashed. */
async function replaceRecoveryCodes(db: Database, userId: number, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = Array.from({ length: 10 }, () => RECOVERY_CHARS[randomInt(RECOVERY_CHARS.length)]).join('');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db.insert(userRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: sha256(normalizeRecoveryCode(code)), createdAt: now })));
  return codes;
}

/** Recovery codes are compared without dashes, spaces or case. */
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Confirms the unconfirmed enrolment with a code from the app: the authenticator then guards every
 * login. Answers the recovery codes, or undefined when there is no enrolment or the code is wrong.
 */
export async function confirmTotpEnrolment(db: Database, userId: number, code: string, now: Date): Promise<string[] | undefined> {
  const key = await encryptionKey(db);
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(userTotp).where(and(eq(userTotp.userId, userId), isNull(userTotp.confirmedAt))).for('update');
    if (!row) return undefined;
    const step = matchingStep(decryptSecret(key, row.secretEncrypted), code.trim(), now);
    if (step === undefined) return undefined;
    await tx.update(userTotp).set({ confirmedAt: now, lastStep: step }).where(eq(userTotp.userId, userId));
    return replaceRecoveryCodes(tx, userId, now);
  });
}

/**
 * Checks a second factor of an account with a confirmed authenticator: a six-digit code not used
 * before, or an unused recovery code (which is used up). False for anything else.
 */
export async function checkSecondFactor(db: Database, userId: number, code: string, now: Date): Promise<boolean> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
    if (!row?.confirmedAt) return false;
    const step = matchingStep(decryptSecret(await encryptionKey(db), row.secretEncrypted), trimmed, now);
    if (step === undefined) return false;
    // Conditional update: of two requests with the same code, only one moves the step forward.
    const moved = await db
      .update(userTotp)
      .set({ lastStep: step })
      .where(and(eq(userTotp.userId, userId), or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step))))
      .returning({ userId: userTotp.userId });
    return moved.length === 1;
  }
  const normalized = normalizeRecoveryCode(trimmed);
  if (normalized.length !== 10) return false;
  const used = await db
    .update(userRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(userRecoveryCodes.userId, userId), eq(userRecoveryCodes.codeHash, sha256(normalized)), isNull(userRecoveryCodes.usedAt)))
    .returning({ id: userRecoveryCodes.id });
  return used.length === 1;
}

/** Removes the authenticator and the recovery codes: the account signs in with its password alone. */
export async function disableTotp(db: Database, userId: number): Promise<void> {
  await db.transaction(async (tx) => removeTotpOf(tx as unknown as Database, userId));
}

/** disableTotp's deletes, inside a transaction the caller holds (an administrator's reset). */
export async function removeTotpOf(tx: Database, userId: number): Promise<void> {
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await tx.delete(userTotp).where(eq(userTotp.userId, userId));
  await tx.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
}

/** Starts the second step of a login: an opaque token (32 bytes, base64url) valid for five minutes. */
export async function createLoginChallenge(db: Database, input: { userId: number; ip: string; now: Date }): Promise<{ challenge: string; expiresAt: Date }> {
  const challenge = randomBytes(32).toString('base64url');
  const expiresAt = new Date(input.now.getTime() + LOGIN_CHALLENGE_TTL_MS);
  // Expired challenges are useless; dropping them here keeps the table small without a scheduler.
  await db.delete(loginChallenges).where(lt(loginChallenges.expiresAt, input.now));
  await db.insert(loginChallenges).values({ tokenHash: sha256(challenge), userId: input.userId, ip: input.ip, createdAt: input.now, expiresAt });
  return { challenge, expiresAt };
}

/** The open challenge of a token: unused and not expired. */
export async function findLoginChallenge(db: Database, challenge: string, now: Date): Promise<{ id: number; userId: number } | undefined> {
  const [row] = await db
    .select({ id: loginChallenges.id, userId: loginChallenges.userId })
    .from(loginChallenges)
    .where(and(eq(loginChallenges.tokenHash, sha256(challenge)), isNull(loginChallenges.usedAt), gt(loginChallenges.expiresAt, now)));
  return row;
}

/** Uses a challenge up; false when another request used it first. */
export async function consumeLoginChallenge(db: Database, id: number, now: Date): Promise<boolean> {
  const used = await db
    .update(loginChallenges)
    .set({ usedAt: now })
    .where(and(eq(loginChallenges.id, id), isNull(loginChallenges.usedAt)))
    .returning({ id: loginChallenges.id });
  return used.length === 1;
}

/** Whether the account must answer a second factor at login. */
export async function requiresSecondFactor(db: Database, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: userTotp.userId })
    .from(userTotp)
    .where(and(eq(userTotp.userId, userId), sql`${userTotp.confirmedAt} is not null`));
  return row !== undefined;
}

/** Whether two-factor sign-in is mandatory for company administrators (off until a company admin turns it on). */
export async function isTwoFactorRequired(db: Database): Promise<boolean> {
  return (await getSetting(db, REQUIRED_SETTING)) === true;
}

/** Sets the company's two-factor policy, from the next sign-in on. */
export async function setTwoFactorRequired(db: Database, required: boolean): Promise<void> {
  await setSetting(db, REQUIRED_SETTING, required);
}
