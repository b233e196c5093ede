/** What the intake tests share: a registered terminal with its secret, and signed calls made on the test clock. */
import { INTAKE_PATHS, type IntakeEvent } from '@campus/contract';
import { buildMultipartBody, signIntakeRequest } from '@campus/contract/terminal-signing';
import type { LightMyRequestResponse } from 'fastify';
import { devices } from '../../src/db/schema/index.js';
import type { TestApp } from '../helpers/test-app.js';
import { unique } from '../resources/fixtures.js';

export interface TestTerminal {
  id: number;
  deviceId: number;
  serialNumber: string;
  secret: string;
  schoolId: number;
}

/** A device in the school, registered as a terminal by the admin, with a secret issued. */
export async function registerTerminal(t: TestApp, admin: string, schoolId: number, options: { issueSecret?: boolean } = {}): Promise<TestTerminal> {
  const serialNumber = `G3T${unique()}`;
  const [device] = await t.db.insert(devices).values({ serialNumber, deviceClassCode: 'GATE-G3', schoolId }).returning({ id: devices.id });
  const added = await t.injectAs(admin, { method: 'POST', url: '/api/Terminal/Add', payload: { deviceId: device!.id } });
  const id = added.json().data.id as number;
  let secret = '';
  if (options.issueSecret !== false) secret = (await t.injectAs(admin, { method: 'POST', url: '/api/Terminal/IssueSecret', payload: { id } })).json().data.secret;
  return { id, deviceId: Number(device!.id), serialNumber, secret, schoolId };
}

export interface SignedOptions {
  contentType?: string;
  /** Overrides of the signed headers (a wrong signature, an old timestamp, a reused nonce). */
  headers?: Record<string, string>;
  at?: Date;
  nonce?: string;
  secret?: string;
}

/** A call signed by the terminal on the test clock, as a device makes it. */
export function signedCall(t: TestApp, terminal: TestTerminal, path: string, body: Buffer | string, options: SignedOptions = {}): Promise<LightMyRequestResponse> {
  const signed = signIntakeRequest({ serialNumber: terminal.serialNumber, secret: options.secret ?? terminal.secret }, { method: 'POST', path, body }, options.at ?? t.clock.now(), options.nonce);
  return t.app.inject({
    method: 'POST',
    url: path,
    payload: body,
    headers: { 'content-type': options.contentType ?? 'application/json', ...signed, ...options.headers },
  });
}

export const heartbeatBody = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({ firmwareVersion: '2.5.0', ip: '10.1.2.3', freeStorageMb: 1024, faceCount: 120, temperatureSensor: 'ok', ...overrides });

/** An arrival of no one in particular, with this serial, a minute before the test clock. */
export function event(t: TestApp, serial: number, overrides: Partial<IntakeEvent> = {}): IntakeEvent {
  return { serial, personKind: 5, direction: 1, recognizedAt: new Date(t.clock.now().getTime() - 60_000).toISOString(), similarity: 40, ...overrides };
}

export const sendEvents = (t: TestApp, terminal: TestTerminal, events: IntakeEvent[], options: SignedOptions = {}) =>
  signedCall(t, terminal, INTAKE_PATHS.events, JSON.stringify({ events }), options);

export const heartbeat = (t: TestApp, terminal: TestTerminal, overrides: Record<string, unknown> = {}) => signedCall(t, terminal, INTAKE_PATHS.heartbeat, heartbeatBody(overrides));

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Events with snapshot parts, as multipart. */
export function multipartEvents(events: IntakeEvent[], files: { name: string; data: Uint8Array; contentType?: string }[]) {
  return buildMultipartBody(
    { events: JSON.stringify({ events }) },
    files.map((file) => ({ name: file.name, filename: `${file.name}.png`, contentType: file.contentType ?? 'image/png', data: file.data })),
  );
}
