import { randomInt, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { captchas } from '../db/schema/index.js';

/** Captcha answers expire after two minutes (issue 2). */
export const CAPTCHA_TTL_MS = 2 * 60_000;

// svg-captcha's main export, createCaptcha(text, options) → svg, draws a given text; its typings
// leave that export out, so it is loaded with require and typed here.
type DrawText = (text: string, options?: { width?: number; height?: number; noise?: number; color?: boolean }) => string;
const drawText = createRequire(import.meta.url)('svg-captcha') as DrawText;

/** Characters that cannot be mistaken for one another in the picture. */
const CAPTCHA_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';

function randomAnswer(length = 4): string {
  let answer = '';
  for (let index = 0; index < length; index += 1) {
    answer += CAPTCHA_CHARS[randomInt(CAPTCHA_CHARS.length)];
  }
  return answer;
}

export interface IssuedCaptcha {
  vcId: string;
  /** `data:image/svg+xml;base64,...`, usable as an <img> src as is. */
  image: string;
}

/** Issues a single-use captcha; with `fixedCode` (CAPTCHA_FIXED_CODE) the answer and picture are that value. */
export async function issueCaptcha(db: Database, now: Date, fixedCode?: string): Promise<IssuedCaptcha> {
  const answer = fixedCode ?? randomAnswer();
  const vcId = randomUUID();
  // Expired codes are useless; dropping them here keeps the table small without a scheduler.
  await db.delete(captchas).where(lt(captchas.expiresAt, now));
  await db.insert(captchas).values({ id: vcId, answer, createdAt: now, expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS) });
  const svg = drawText(answer, { width: 120, height: 40, noise: 2, color: true });
  return { vcId, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Uses up the captcha and tells whether `code` answers it (case-insensitive). A captcha is consumed by
 * its first check, right or wrong, so one picture never allows a second guess.
 */
export async function consumeCaptcha(db: Database, vcId: string, code: string, now: Date): Promise<boolean> {
  if (!UUID.test(vcId)) return false;
  const [captcha] = await db
    .update(captchas)
    .set({ usedAt: now })
    .where(and(eq(captchas.id, vcId), isNull(captchas.usedAt), gt(captchas.expiresAt, now)))
    .returning({ answer: captchas.answer });
  return captcha !== undefined && captcha.answer.toLowerCase() === code.trim().toLowerCase();
}
