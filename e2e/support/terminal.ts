/**
 * A terminal as the journeys play it: registered and given a secret through the console's API as an
 * operator would, then signing its intake calls with the contract's helper, byte for byte as a device.
 */
import { INTAKE_PATHS, type BatchAnswer, type CommandAckBody, type HeartbeatAnswer, type IntakeEvent } from '@campus/contract';
import { buildMultipartBody, signIntakeRequest } from '@campus/contract/terminal-signing';
import { call } from './api';

export interface TestTerminal {
  serialNumber: string;
  secret: string;
}

/** Registers the device with this serial number as a terminal (when it is not one yet) and issues its secret. */
export async function registerTerminal(adminToken: string, serialNumber: string): Promise<TestTerminal> {
  const post = <T>(path: string, body: unknown) => call<T>(path, { method: 'POST', body: JSON.stringify(body) }, adminToken);
  const devices = await post<{ items: { id: number }[] }>('/api/Device/Search?view=deviceInformation', { pageIndex: 1, pageSize: 1, serialNumber });
  const deviceId = devices.items[0]?.id;
  if (deviceId === undefined) throw new Error(`no device ${serialNumber}`);
  const terminals = await post<{ items: { id: number }[] }>('/api/Terminal/Search?view=equipmentManage', { pageIndex: 1, pageSize: 1, deviceId });
  const terminalId = terminals.items[0]?.id ?? (await post<{ id: number }>('/api/Terminal/Add?view=equipmentManage', { deviceId })).id;
  const { secret } = await post<{ secret: string }>('/api/Terminal/IssueSecret?view=equipmentManage', { id: terminalId });
  return { serialNumber, secret };
}

async function signedPost<T>(terminal: TestTerminal, path: string, body: string | Buffer, contentType: string): Promise<T> {
  const headers = signIntakeRequest(terminal, { method: 'POST', path, body });
  return call<T>(path, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body: typeof body === 'string' ? body : new Uint8Array(body) });
}

export function heartbeat(terminal: TestTerminal, firmwareVersion = '2.5.0'): Promise<HeartbeatAnswer> {
  const body = { firmwareVersion, ip: '10.0.0.8', freeStorageMb: 4096, faceCount: 120, temperatureSensor: 'ok' };
  return signedPost(terminal, INTAKE_PATHS.heartbeat, JSON.stringify(body), 'application/json');
}

/** Sends events, each with its snapshot when one is given for its serial. */
export function sendEvents(terminal: TestTerminal, events: IntakeEvent[], snapshots: Map<number, Uint8Array> = new Map()): Promise<BatchAnswer> {
  const withParts = events.map((e) => (snapshots.has(e.serial) ? { ...e, snapshotPart: `s${e.serial}` } : e));
  const files = [...snapshots].map(([serial, data]) => ({ name: `s${serial}`, filename: `s${serial}.png`, contentType: 'image/png', data }));
  const { body, contentType } = buildMultipartBody({ events: JSON.stringify({ events: withParts }) }, files);
  return signedPost(terminal, INTAKE_PATHS.events, body, contentType);
}

export function acknowledge(terminal: TestTerminal, body: CommandAckBody): Promise<unknown> {
  return signedPost(terminal, INTAKE_PATHS.commandAck, JSON.stringify(body), 'application/json');
}

