import { FRAMES, frameOf, type ButtonValue, type UserType } from '@campus/contract';

/** Frame fixedId → button values; the shape of a grant. */
export type GrantSpec = ReadonlyMap<number, readonly ButtonValue[]>;

/** Every button the frame declares. */
const full = (index: string): [number, readonly ButtonValue[]] => {
  const frame = frameOf(index);
  return [frame.fixedId, frame.buttons];
};

/** Only the listed buttons (checked against the frame's declaration, so a typo fails at start). */
const only = (index: string, buttons: readonly ButtonValue[]): [number, readonly ButtonValue[]] => {
  const frame = frameOf(index);
  const unknown = buttons.filter((button) => !frame.buttons.includes(button));
  if (unknown.length > 0) throw new Error(`Frame '${index}' has no button(s) ${unknown.join(', ')}`);
  return [frame.fixedId, buttons];
};

const readOnly = (index: string) => only(index, frameOf(index).buttons.includes('export') ? ['export'] : []);

const AGENT_FRAMES: [number, readonly ButtonValue[]][] = [
  full('index'),
  full('systemView'),
  full('DataCenter'),
  full('jsc'),
  full('displayLargeScreen'),
  full('homeCustomization'),
  full('personSearch'),
  full('studentInfo'),
  full('parentUser'),
  full('teacherInfo'),
  full('pickupInfo'),
  full('misIdentifyPerson'),
  full('userTemperature'),
  only('schoolManage', ['add', 'import', 'update', 'export', 'state', 'password']),
  readOnly('deviceInformation'),
  // Agents order devices for their schools; the company confirms, ships and completes them.
  only('orderManage', ['add', 'update', 'delete', 'export']),
  readOnly('equipmentDelivery'),
  readOnly('warrantyManage'),
  only('equipmentManage', ['update', 'export', 'enable']),
  full('codeManageA'),
  full('codeManageB'),
  full('signCardManage'),
  full('identifySuccess'),
  full('identifyWarn'),
  readOnly('terminalLog'),
  only('equipmentMaintenance', ['add', 'export']),
  // The ops daily report of the agent's schools: their terminals' silences, failures and tickets.
  full('operationLog'),
  full('holidayManage'),
  full('nvrManage'),
  full('schoolStatistics'),
  full('stuMonthStatistic'),
  full('productStatistics'),
  full('warehousingStatistics'),
  // The app-use statistics of the agent's schools (issue 31); the raw app-use log stays the company's.
  full('uaStatistics'),
  full('userActTable'),
  full('userStyleStatistics'),
  full('funStatistics'),
  full('functionalTrends'),
  full('userStatistics'),
  readOnly('payDetailManage'),
  // Agents read their schools' merchant configs and fund accounts; the company sets and adjusts them.
  readOnly('schoolMerchantsManage'),
  readOnly('wonderfulClassCharge'),
  readOnly('safeCampusService'),
  only('refundManage', ['export', 'add']),
  full('userExternal'),
  full('userChild'),
  full('personalInformation'),
];

/**
 * The grants each user type starts with (seeded into the grants table at start when a type has
 * none; jurisdictionManage edits them afterwards). One place to read who sees what by default.
 */
export const DEFAULT_TYPE_GRANTS: Record<UserType, GrantSpec> = {
  company: new Map(FRAMES.map((frame) => [frame.fixedId, frame.buttons])),
  sales: new Map([
    full('index'),
    full('systemView'),
    full('DataCenter'),
    full('jsc'),
    readOnly('personSearch'),
    readOnly('studentInfo'),
    readOnly('parentUser'),
    readOnly('teacherInfo'),
    readOnly('pickupInfo'),
    only('schoolManage', ['add', 'import', 'update', 'export']),
    readOnly('salesTeam'),
    readOnly('sellArea'),
    readOnly('agencyArea'),
    readOnly('schoolStatistics'),
    full('personalInformation'),
  ]),
  // An agent grants its own child accounts (jurisdictionManage), never more than it holds.
  agent: new Map([...AGENT_FRAMES, full('jurisdictionManage')]),
  // A child account starts like an agent, without managing child accounts or grants (only the agent
  // does); its effective grant is further cut to its parent's.
  child: new Map(AGENT_FRAMES.filter(([frameId]) => frameId !== frameOf('userChild').fixedId)),
  external: new Map([
    full('index'),
    full('personSearch'),
    full('studentInfo'),
    full('teacherInfo'),
    full('parentUser'),
    full('pickupInfo'),
    readOnly('identifySuccess'),
    full('personalInformation'),
  ]),
};
