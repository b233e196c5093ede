/**
 * Who is calling the intake: the four signed headers checked against the device's sealed secret,
 * over the raw body bytes. Every refusal is HTTP 401 code 401 and happens before anything is
 * stored; the nonce is claimed later, inside the transaction of the call's data (claimNonce), so a
 * call that fails for any reason leaves its nonce free for the device's retry.
 */
import {
  INTAKE_HEADERS,
  INTAKE_MAX_CLOCK_SKEW_MS,
  INTAKE_NONCE_PATTERN,
  ErrorCode,
  OFFLINE_AFTER_MISSED_HEARTBEATS,
  type ServerMessage,
} from '@campus/contract';
import { intakeSignature, signatureMatches } from '@campus/contract/terminal-signing';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from '../db/client.js';
import { devices, settings, terminalNonces, terminals } from '../db/schema/index.js';
import { AppError, msg } from '../platform/errors.js';
import { columnOf } from '../resources/engine/query.js';
import type { IntakeDevice } from './intake-handlers.js';
import { HEARTBEAT_SECONDS_SETTING, SUCCESS_SIMILARITY_SETTING, heartbeatSecondsOf, successSimilarityOf } from './settings.js';

/** A verified intake call: the device, its terminal row, the nonce to claim and the call's time. */
export interface VerifiedCall {
  device: IntakeDevice;
  terminalId: number;
  /** A terminal is registered in a school (terminal.deviceWithoutSchool), so this is never null. */
  schoolId: number;
  nonce: string;
  now: Date;
  intervalSeconds: number;
  /** Similarity a known person's event must reach to be stored as recognised (settings.ts). */
  successSimilarity: number;
}

/** HTTP 401 code 401: the envelope every refusal of the intake answers. */
export function intakeRefused(reason: ServerMessage): AppError {
  return new AppError(401, ErrorCode.Unauthorized, reason);
}

/**
 * Checks the headers, the clock, the device and the signature of a call whose body is `body`
 * (the bytes as received). Answers the verified call, or throws the 401.
 */
export async function verifyIntakeCall(request: FastifyRequest, body: Buffer): Promise<VerifiedCall> {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const serial = header(INTAKE_HEADERS.serial);
  const timestamp = header(INTAKE_HEADERS.timestamp);
  const nonce = header(INTAKE_HEADERS.nonce);
  const signature = header(INTAKE_HEADERS.signature);
  const missing = Object.values(INTAKE_HEADERS).filter((name) => !header(name));
  if (missing.length > 0 || !serial || !timestamp || !nonce || !signature) throw intakeRefused(msg('intake.missingHeaders', { headers: missing }));
  if (!/^\d{1,15}$/.test(timestamp) || !INTAKE_NONCE_PATTERN.test(nonce) || !/^[0-9a-f]{64}$/i.test(signature) || serial.length > 64) {
    throw intakeRefused(msg('intake.unauthenticated'));
  }
  const now = request.server.clock.now();
  if (Math.abs(now.getTime() - Number(timestamp)) > INTAKE_MAX_CLOCK_SKEW_MS) {
    throw intakeRefused(msg('intake.clockSkew', { minutes: INTAKE_MAX_CLOCK_SKEW_MS / 60_000 }));
  }

  // One round trip: the terminal of the device with this serial, and the terminal settings.
  const [row] = await request.server.db
    .select({
      terminalId: columnOf(terminals, 'id'),
      deviceId: columnOf(devices, 'id'),
      schoolId: columnOf(terminals, 'schoolId'),
      enabled: columnOf(terminals, 'enabled'),
      secretSealed: columnOf(terminals, 'secretSealed'),
      interval: sql<unknown>`(select ${settings.value} from ${settings} where ${settings.key} = ${HEARTBEAT_SECONDS_SETTING})`,
      similarity: sql<unknown>`(select ${settings.value} from ${settings} where ${settings.key} = ${SUCCESS_SIMILARITY_SETTING})`,
    })
    .from(terminals)
    .innerJoin(devices, eq(columnOf(devices, 'id'), columnOf(terminals, 'deviceId')))
    .where(eq(columnOf(devices, 'serialNumber'), serial))
    .limit(1);
  // Unknown, disabled, without a secret, or a wrong signature: one answer, so serials cannot be probed.
  if (!row || row.enabled !== true || typeof row.secretSealed !== 'string' || row.schoolId === null) throw intakeRefused(msg('intake.unauthenticated'));
  const secret = (await request.server.terminalSecrets()).unseal(row.secretSealed);
  if (!secret) throw intakeRefused(msg('intake.unauthenticated'));
  const path = request.url.split('?')[0]!;
  const expected = intakeSignature(secret, { method: request.method, path, timestamp, nonce, body });
  if (!signatureMatches(expected, signature)) throw intakeRefused(msg('intake.unauthenticated'));

  return {
    device: { id: Number(row.deviceId), serialNumber: serial, schoolId: Number(row.schoolId) },
    terminalId: Number(row.terminalId),
    schoolId: Number(row.schoolId),
    nonce,
    now,
    intervalSeconds: heartbeatSecondsOf(row.interval),
    successSimilarity: successSimilarityOf(row.similarity),
  };
}

/** Claims the call's nonce in the call's transaction: a nonce the device used before refuses the call (and rolls it back). */
export async function claimNonce(tx: Transaction, call: VerifiedCall): Promise<void> {
  const claimed = await tx
    .insert(terminalNonces)
    .values({ terminalId: call.terminalId, nonce: call.nonce, seenAt: call.now })
    .onConflictDoNothing()
    .returning({ nonce: terminalNonces.nonce });
  if (claimed.length === 0) throw intakeRefused(msg('intake.nonceReused'));
}

/**
 * Any signed call is activity: lastSeenAt now, offline once OFFLINE_AFTER_MISSED_HEARTBEATS intervals
 * pass without another. `status` adds what a heartbeat reports. Locks the terminal's row, so the
 * calls of one device that touch its serials run one after the other.
 */
export async function touchTerminal(tx: Transaction, call: VerifiedCall, status: Record<string, unknown> = {}): Promise<{ lastEventSerial: number }> {
  const offlineAt = new Date(call.now.getTime() + OFFLINE_AFTER_MISSED_HEARTBEATS * call.intervalSeconds * 1000);
  const [row] = await tx
    .update(terminals)
    .set({
      ...status,
      lastSeenAt: call.now,
      offlineAt,
      // SET reads the row as it was: a call after the offline time (or the first ever) starts a new run of calls.
      firstSeenAt: sql`coalesce(first_seen_at, ${call.now.toISOString()}::timestamptz)`,
      onlineSince: sql`case when online_since is null or offline_at is null or offline_at <= ${call.now.toISOString()}::timestamptz then ${call.now.toISOString()}::timestamptz else online_since end`,
    })
    .where(eq(columnOf(terminals, 'id'), call.terminalId))
    .returning({ lastEventSerial: columnOf(terminals, 'lastEventSerial') });
  // Read under the row lock: the highest serial as it stands for this call.
  return { lastEventSerial: Number(row?.lastEventSerial ?? 0) };
}

/** Nonces older than this can never be replayed: their timestamp is refused by the clock check already. */
export const NONCE_RETENTION_MS = 2 * INTAKE_MAX_CLOCK_SKEW_MS;
