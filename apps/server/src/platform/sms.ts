import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { smsCodes, smsOutbox, type SmsPurpose } from '../db/schema/index.js';
import { ErrorCode } from '@campus/contract';
import { AppError, tooManyRequests, msg } from './errors.js';

/**
 * A verification code to send. Gateways send approved templates with parameters (`template`,
 * `params`); `text` is the same message written out, for the outbox and the log.
 */
export interface SmsMessage {
  phone: string;
  template: 'verificationCode';
  params: { code: string; minutes: number };
  purpose: SmsPurpose;
  text: string;
}

/** Sends a text message; the default writes to sms_outbox, a gateway (sms-providers/) implements the same. */
export interface SmsProvider {
  send(message: SmsMessage): Promise<void>;
}

/** The default provider: messages land in the sms_outbox table (a company admin reads them on a page) and the log. */
export class OutboxSmsProvider implements SmsProvider {
  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    await this.db.insert(smsOutbox).values({ phone: message.phone, content: message.text });
    this.log.info({ phone: maskPhone(message.phone) }, 'sms written to sms_outbox');
  }
}

export const SMS_CODE_TTL_MS = 5 * 60_000;
export const SMS_RESEND_INTERVAL_MS = 60_000;
/** At most this many codes per requesting address in the window, whatever the phones. */
export const SMS_ADDRESS_LIMIT = { count: 10, windowMs: 60 * 60_000 } as const;
/** Wrong guesses after which a code is burnt. */
const SMS_CODE_MAX_FAILURES = 5;

/** 13800000001 → 138****0001. */
export function maskPhone(phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}

function hashCode(phone: string, purpose: SmsPurpose, code: string): string {
  return createHash('sha256').update(`${purpose}:${phone}:${code}`).digest('hex');
}

export interface SmsContext {
  db: Database;
  sms: SmsProvider;
  now: Date;
}

/**
 * Issues a 6-digit code for `purpose`, valid 5 minutes, at most one per phone per minute (HTTP 429).
 * With `deliver: false` the code is stored but never sent: the reset flow uses that for a phone that
 * does not match the account, so the answer and the rate limit look the same either way.
 */
export async function issueSmsCode(
  context: SmsContext,
  input: { phone: string; purpose: SmsPurpose; deliver: boolean; ip?: string },
): Promise<void> {
  const { db, now } = context;
  if (input.ip) {
    // One address asking for codes to many phones is someone sending SMS at the company's cost.
    const [sent] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(smsCodes)
      .where(and(eq(smsCodes.ip, input.ip), gt(smsCodes.createdAt, new Date(now.getTime() - SMS_ADDRESS_LIMIT.windowMs))));
    if (Number(sent?.n ?? 0) >= SMS_ADDRESS_LIMIT.count) throw tooManyRequests(msg('error.tooManySmsFromAddress'));
  }
  const [recent] = await db
    .select({ id: smsCodes.id })
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, input.phone), gt(smsCodes.createdAt, new Date(now.getTime() - SMS_RESEND_INTERVAL_MS))))
    .limit(1);
  if (recent) throw tooManyRequests(msg('error.smsTooSoon'));
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const [issued] = await db.insert(smsCodes).values({
    phone: input.phone,
    purpose: input.purpose,
    codeHash: hashCode(input.phone, input.purpose, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SMS_CODE_TTL_MS),
    ip: input.ip ?? null,
  }).returning({ id: smsCodes.id });
  if (input.deliver) {
    const minutes = SMS_CODE_TTL_MS / 60_000;
    await sendOrForget(context, issued!.id, {
      phone: input.phone,
      template: 'verificationCode',
      params: { code, minutes },
      purpose: input.purpose,
      text: `【Campus Ops】验证码 ${code}，${minutes}分钟内有效。Your verification code is ${code}, valid for ${minutes} minutes.`,
    });
  }
}

/**
 * Sends the code; when the gateway refuses or does not answer, the code is deleted (it was never
 * received, so it must not hold the one-a-minute limit) and the caller is told to try again later.
 */
async function sendOrForget(context: SmsContext, codeId: number, message: SmsMessage): Promise<void> {
  try {
    await context.sms.send(message);
  } catch {
    // The provider logged the gateway's reason (a warning, so also in the platform log); the caller gets no gateway detail.
    await context.db.delete(smsCodes).where(eq(smsCodes.id, codeId));
    throw new AppError(503, ErrorCode.ServiceUnavailable, msg('error.smsNotSent'));
  }
}

/** Checks and uses up the latest live code of the phone for `purpose`; false when wrong, used or expired. */
export async function consumeSmsCode(
  db: Database,
  input: { phone: string; purpose: SmsPurpose; code: string; now: Date },
): Promise<boolean> {
  const [latest] = await db
    .select()
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, input.phone), eq(smsCodes.purpose, input.purpose), isNull(smsCodes.usedAt), gt(smsCodes.expiresAt, input.now)))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  if (!latest) return false;
  const expected = Buffer.from(latest.codeHash, 'hex');
  const actual = Buffer.from(hashCode(input.phone, input.purpose, input.code), 'hex');
  if (timingSafeEqual(expected, actual)) {
    // The update's condition makes the code single-use even when two requests race.
    const used = await db
      .update(smsCodes)
      .set({ usedAt: input.now })
      .where(and(eq(smsCodes.id, latest.id), isNull(smsCodes.usedAt)))
      .returning({ id: smsCodes.id });
    return used.length === 1;
  }
  const failures = latest.failedAttempts + 1;
  await db
    .update(smsCodes)
    .set({ failedAttempts: failures, usedAt: failures >= SMS_CODE_MAX_FAILURES ? input.now : null })
    .where(eq(smsCodes.id, latest.id));
  return false;
}
