/**
 * Brings the fleet the simulator plays into the console through its own API, as an operator would:
 * face terminals (gates and attendance machines) installed at schools, each registered on
 * equipmentManage with a secret; devices are added when the schools have fewer than asked for.
 */
import { ApiError, type ConsoleClient } from './console-client.js';
import type { FleetState } from './fleet-state.js';

/** The face-terminal models of the demo catalogue and their serial prefixes (DeviceClass.snPrefix). */
const FACE_MODELS = [
  { code: 'GATE-G3', prefix: 'G3' },
  { code: 'ATT-A8', prefix: 'A8' },
] as const;
/** Device states of a device that stands at a school (DEVICE_STATE_OPTIONS: delivered, installed). */
const AT_SCHOOL = new Set([2, 3]);
const INSTALLED = 3;
const FIRST_FIRMWARE = '1.0.0';

/** A person a terminal's face library holds (RECOGNITION_PERSON_KIND_OPTIONS kind 1–4). */
export interface SimPerson {
  id: number;
  kind: number;
}

export interface SimDevice {
  deviceId: number;
  terminalId: number;
  serialNumber: string;
  schoolId: number;
}

interface DeviceRow {
  id: number;
  serialNumber: string;
  schoolId: number | null;
  state: number;
}

interface TerminalRow {
  id: number;
  deviceId: number;
}

/** `count` face terminals at schools, registered, with their secrets in `state`. */
export async function provisionFleet(client: ConsoleClient, count: number, state: FleetState, log: (line: string) => void): Promise<SimDevice[]> {
  const devices: DeviceRow[] = [];
  for (const model of FACE_MODELS) {
    const rows = await client.searchAll<DeviceRow>('Device', 'deviceInformation', { deviceClassCode: model.code });
    devices.push(...rows.filter((d) => d.schoolId !== null && AT_SCHOOL.has(d.state)));
  }
  devices.sort((a, b) => a.id - b.id);
  if (devices.length < count) devices.push(...(await addDevices(client, count - devices.length, log)));
  const fleet = devices.slice(0, count);

  const terminals = new Map((await client.searchAll<TerminalRow>('Terminal', 'equipmentManage')).map((t) => [t.deviceId, t.id]));
  const result: SimDevice[] = [];
  for (const device of fleet) {
    let terminalId = terminals.get(device.id);
    if (terminalId === undefined) {
      terminalId = (await client.call<{ id: number }>('/api/Terminal/Add?view=equipmentManage', { deviceId: device.id, remark: '终端模拟器' })).id;
      log(`registered ${device.serialNumber}`);
    }
    if (!state.terminals[device.serialNumber]) await issueSecret(client, terminalId, device.serialNumber, state);
    result.push({ deviceId: device.id, terminalId, serialNumber: device.serialNumber, schoolId: device.schoolId! });
  }
  return result;
}

/** Issues (or rotates) a terminal's secret and remembers it; the console shows a secret only once. */
export async function issueSecret(client: ConsoleClient, terminalId: number, serialNumber: string, state: FleetState): Promise<void> {
  const { secret } = await client.call<{ secret: string }>('/api/Terminal/IssueSecret?view=equipmentManage', { id: terminalId });
  const previous = state.terminals[serialNumber];
  state.terminals[serialNumber] = { secret, nextSerial: previous?.nextSerial ?? firstSerial(), firmwareVersion: previous?.firmwareVersion ?? FIRST_FIRMWARE };
}

/**
 * A new terminal's first event serial: seconds since 2025, so a device the demo seed already gave
 * records (serials from 1) or an earlier simulator state never repeats a serial the console holds.
 */
function firstSerial(): number {
  return Math.floor((Date.now() - Date.UTC(2025, 0, 1)) / 1000);
}

/** Adds installed face terminals spread over the schools, serials `<prefix>S<n>` after any added before. */
async function addDevices(client: ConsoleClient, missing: number, log: (line: string) => void): Promise<DeviceRow[]> {
  const schools = await client.searchAll<{ id: number }>('School', 'schoolManage');
  if (schools.length === 0) throw new Error('the console has no school to install terminals at');
  const added: DeviceRow[] = [];
  for (let i = 0; added.length < missing; i += 1) {
    const model = FACE_MODELS[i % FACE_MODELS.length]!;
    const serialNumber = `${model.prefix}S${String(i + 1).padStart(5, '0')}`;
    const schoolId = schools[i % schools.length]!.id;
    try {
      const { id } = await client.call<{ id: number }>('/api/Device/Add?view=deviceInformation', { serialNumber, deviceClassCode: model.code, schoolId, state: INSTALLED });
      added.push({ id, serialNumber, schoolId, state: INSTALLED });
    } catch (error) {
      // Added by an earlier run whose device is not at a school any more (or taken): skip the number.
      if (!(error instanceof ApiError && error.hasFieldError('serialNumber'))) throw error;
    }
  }
  log(`added ${added.length} devices`);
  return added;
}

/** The people of each school the fleet stands at, as a terminal's face library would hold them. */
export async function loadPeople(client: ConsoleClient, schoolIds: number[]): Promise<Map<number, SimPerson[]>> {
  const sources = [
    { family: 'Student', view: 'studentInfo', kind: 1, limit: 400 },
    { family: 'Teacher', view: 'teacherInfo', kind: 2, limit: 60 },
    { family: 'Parent', view: 'parentUser', kind: 3, limit: 100 },
    { family: 'PickUpPerson', view: 'pickupInfo', kind: 4, limit: 60 },
  ] as const;
  const people = new Map<number, SimPerson[]>();
  for (const schoolId of new Set(schoolIds)) {
    const list: SimPerson[] = [];
    for (const source of sources) {
      const rows = await client.searchAll<{ id: number }>(source.family, source.view, { schoolId }, source.limit);
      list.push(...rows.map((row) => ({ id: row.id, kind: source.kind })));
    }
    people.set(schoolId, list);
  }
  return people;
}
