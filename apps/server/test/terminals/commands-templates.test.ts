import { TERMINAL_COMMAND_STATES as S } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, settings, terminalCommands, terminalConfigs, terminals } from '../../src/db/schema/index.js';
import { probesUserKey } from '../../src/platform/probes.js';
import { commandHandlersOf, type IntakeDevice } from '../../src/terminals/intake-handlers.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf, unique, userIdOf } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
let agent2Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

const post = (token: string, family: string, verb: string, payload: unknown) => {
  const view = family === 'TerminalConfig' ? 'templateManage' : 'equipmentManage';
  return t.injectAs(token, { method: 'POST', url: `/api/${family}/${verb}?view=${view}`, payload: payload as object });
};
const errorPaths = (body: { data: { errors: { path: string }[] } }) => body.data.errors.map((e) => e.path);

async function newDevice(schoolId = agent1Schools[0]!): Promise<IntakeDevice> {
  const serialNumber = `G3TPL${unique()}`;
  const [device] = await t.db.insert(devices).values({ serialNumber, deviceClassCode: 'GATE-G3', state: 1, schoolId }).returning({ id: devices.id });
  return { id: device!.id, serialNumber, schoolId };
}

async function addTemplate(extra: Record<string, unknown> = {}, token = admin): Promise<number> {
  const body = { name: `模板${unique()}`, recognitionThreshold: 90, temperatureThreshold: 37.5, doorOpenSeconds: 5, volume: 40, workingHours: '07:00-12:00,13:30-18:00', ...extra };
  const response = await post(token, 'TerminalConfig', 'Add', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id;
}

const commandsOfTemplate = (templateId: number) => t.db.select().from(terminalCommands).where(eq(terminalCommands.templateId, templateId));

/** Overrides one probe of agent1 (a user's own probes win over its type's). */
async function setAgentProbes(probes: Record<string, boolean> | undefined): Promise<void> {
  const key = probesUserKey(await userIdOf(t, 'agent1'));
  await t.db.delete(settings).where(eq(settings.key, key));
  if (probes) await t.db.insert(settings).values({ key, value: probes });
}

describe('POST /api/TerminalConfig/ApplyTemplate', () => {
  it("queues one applyTemplate command per device, carrying a copy of the template's parameters", async () => {
    const templateId = await addTemplate();
    const [first, second] = [await newDevice(agent1Schools[0]), await newDevice(agent1Schools[1])];
    const response = await post(agent1, 'TerminalConfig', 'ApplyTemplate', { id: templateId, deviceIds: [first.id, second.id] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.commandIds).toHaveLength(2);

    const queued = await commandsOfTemplate(templateId);
    const parameters = { recognitionThreshold: 90, temperatureThreshold: 37.5, doorOpenSeconds: 5, volume: 40, workingHours: '07:00-12:00,13:30-18:00' };
    expect(queued.map((c) => [c.deviceId, c.schoolId, c.kind, c.state]).sort()).toEqual(
      [
        [first.id, agent1Schools[0], 'applyTemplate', S.QUEUED],
        [second.id, agent1Schools[1], 'applyTemplate', S.QUEUED],
      ].sort(),
    );
    for (const command of queued) expect(command.payload).toEqual(parameters);

    // Editing the template later changes no command already queued.
    const [stored] = await t.db.select({ version: terminalConfigs.version }).from(terminalConfigs).where(eq(terminalConfigs.id, templateId));
    expect((await post(admin, 'TerminalConfig', 'Update', { id: templateId, version: stored!.version, volume: 10 })).statusCode).toBe(200);
    expect((await commandsOfTemplate(templateId)).every((c) => (c.payload as { volume: number }).volume === 40)).toBe(true);
    const [handed] = await t.db.transaction((tx) => commandHandlersOf().commandsFor(tx, first, t.clock.now()));
    expect(handed!.payload).toEqual(parameters);
  });

  it('queues nothing when one device is out of scope, or the template is disabled', async () => {
    const templateId = await addTemplate();
    const [own, foreign] = [await newDevice(), await newDevice(agent2Schools[0])];
    const refused = await post(agent1, 'TerminalConfig', 'ApplyTemplate', { id: templateId, deviceIds: [own.id, foreign.id] });
    expect(refused.statusCode).toBe(400);
    expect(errorPaths(refused.json())).toEqual(['deviceIds']);
    expect(await commandsOfTemplate(templateId)).toEqual([]);

    expect((await post(agent1, 'TerminalConfig', 'ApplyTemplate', { id: templateId, deviceIds: [] })).statusCode).toBe(400);

    expect((await post(admin, 'TerminalConfig', 'UpdateEnabled', { ids: [templateId], value: false })).statusCode).toBe(200);
    expect((await post(agent1, 'TerminalConfig', 'ApplyTemplate', { id: templateId, deviceIds: [own.id] })).statusCode).toBe(409);
    expect(await commandsOfTemplate(templateId)).toEqual([]);
  });

  it('records the template on the terminal once the device reports the command done', async () => {
    const templateId = await addTemplate();
    const device = await newDevice();
    const [terminal] = await t.db.insert(terminals).values({ deviceId: device.id, schoolId: device.schoolId, serialNumber: device.serialNumber }).returning({ id: terminals.id });
    await post(agent1, 'TerminalConfig', 'ApplyTemplate', { id: templateId, deviceIds: [device.id] });
    const [command] = await t.db.transaction((tx) => commandHandlersOf().commandsFor(tx, device, t.clock.now()));
    const terminalTemplate = async () => (await t.db.select({ templateId: terminals.templateId }).from(terminals).where(eq(terminals.id, terminal!.id)))[0]!.templateId;

    await t.db.transaction((tx) => commandHandlersOf().acknowledge(tx, device, { commandId: command!.id, status: 'delivered', resultCode: 0 }, t.clock.now()));
    expect(await terminalTemplate()).toBeNull();
    await t.db.transaction((tx) => commandHandlersOf().acknowledge(tx, device, { commandId: command!.id, status: 'succeeded', resultCode: 0 }, t.clock.now()));
    expect(await terminalTemplate()).toBe(templateId);

    const got = await t.injectAs(agent1, { method: 'GET', url: `/api/Terminal/Get?id=${terminal!.id}&view=equipmentManage` });
    expect(got.json().data).toMatchObject({ templateId });
  });
});

describe('an applyTemplate command queued from the terminal page', () => {
  it('needs a template, whose parameters it carries', async () => {
    const device = await newDevice();
    const missing = await post(agent1, 'TerminalCommand', 'Add', { deviceId: device.id, kind: 'applyTemplate' });
    expect(missing.statusCode).toBe(400);
    expect(errorPaths(missing.json())).toEqual(['templateId']);
    expect((await post(agent1, 'TerminalCommand', 'Add', { deviceId: device.id, kind: 'reboot', templateId: await addTemplate() })).statusCode).toBe(400);

    const templateId = await addTemplate({ volume: 77 });
    const added = await post(agent1, 'TerminalCommand', 'Add', { deviceId: device.id, kind: 'applyTemplate', templateId });
    expect(added.statusCode, added.body).toBe(200);
    const [row] = await t.db.select().from(terminalCommands).where(eq(terminalCommands.id, added.json().data.id));
    expect(row).toMatchObject({ templateId, payload: expect.objectContaining({ volume: 77, recognitionThreshold: 90 }) });
  });
});

describe('who edits templates (visibility probes)', () => {
  it('lets an agent without canSetParamOptions write templates but not their thresholds', async () => {
    const refused = await post(agent1, 'TerminalConfig', 'Add', { name: `代理模板${unique()}`, recognitionThreshold: 60, doorOpenSeconds: 3, volume: 50, workingHours: '07:00-18:00' });
    expect(refused.statusCode).toBe(400);
    expect(errorPaths(refused.json())).toEqual(['recognitionThreshold']);

    const id = await addTemplate({ recognitionThreshold: undefined, temperatureThreshold: undefined }, agent1);
    const [stored] = await t.db.select().from(terminalConfigs).where(eq(terminalConfigs.id, id));
    expect(stored).toMatchObject({ recognitionThreshold: 80, temperatureThreshold: 37.3 });

    const raised = await post(agent1, 'TerminalConfig', 'Update', { id, version: 1, temperatureThreshold: 38.5 });
    expect(raised.statusCode).toBe(400);
    expect(errorPaths(raised.json())).toEqual(['temperatureThreshold']);
    const quieter = await post(agent1, 'TerminalConfig', 'Update', { id, version: 1, volume: 20, temperatureThreshold: 37.3 });
    expect(quieter.statusCode, quieter.body).toBe(200);
    expect((await t.db.select().from(terminalConfigs).where(eq(terminalConfigs.id, id)))[0]).toMatchObject({ volume: 20, temperatureThreshold: 37.3 });
  });

  it('refuses every change and every application without canUpdateParamConfigs (403), queuing nothing', async () => {
    const templateId = await addTemplate();
    const device = await newDevice();
    await setAgentProbes({ canUpdateParamConfigs: false });
    try {
      expect((await post(agent1, 'TerminalConfig', 'Add', { name: `模板${unique()}`, doorOpenSeconds: 3, volume: 50, workingHours: '07:00-18:00' })).statusCode).toBe(403);
      expect((await post(agent1, 'TerminalConfig', 'Update', { id: templateId, version: 1, volume: 1 })).statusCode).toBe(403);
      expect((await post(agent1, 'TerminalConfig', 'UpdateEnabled', { ids: [templateId], value: false })).statusCode).toBe(403);
      expect((await post(agent1, 'TerminalConfig', 'BatchDelete', [templateId])).statusCode).toBe(403);
      expect((await post(agent1, 'TerminalConfig', 'ApplyTemplate', { id: templateId, deviceIds: [device.id] })).statusCode).toBe(403);
      expect((await post(agent1, 'TerminalCommand', 'Add', { deviceId: device.id, kind: 'applyTemplate', templateId })).statusCode).toBe(403);
      // Other commands stay the agent's to queue.
      expect((await post(agent1, 'TerminalCommand', 'Add', { deviceId: device.id, kind: 'reboot' })).statusCode).toBe(200);
    } finally {
      await setAgentProbes(undefined);
    }
    expect(await commandsOfTemplate(templateId)).toEqual([]);
    expect((await t.db.select().from(terminalConfigs).where(eq(terminalConfigs.id, templateId)))[0]).toMatchObject({ volume: 40, enabled: true });
  });

  it('refuses working hours that end before they start', async () => {
    const response = await post(admin, 'TerminalConfig', 'Add', { name: `模板${unique()}`, doorOpenSeconds: 3, volume: 50, workingHours: '18:00-07:00' });
    expect(response.statusCode).toBe(400);
    expect(errorPaths(response.json())).toEqual(['workingHours']);
  });
});
