import { INTAKE_PATHS } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf } from '../resources/fixtures.js';
import { registerTerminal, signedCall, type TestTerminal } from './intake-support.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let agent2: string;
let own: TestTerminal;
let foreign: TestTerminal;

beforeAll(async () => {
  t = await createTestApp();
  await Promise.all([grantEverything(t, 'agent1'), grantEverything(t, 'agent2')]);
  [admin, agent1, agent2] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('agent2')]);
  const [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
  own = await registerTerminal(t, admin, agent1Schools[0]!);
  foreign = await registerTerminal(t, admin, agent2Schools[0]!);
});
afterAll(() => t.close());

const logLine = (serial: number, message: string) => ({ serial, level: 'error', module: 'door', message, loggedAt: t.clock.now().toISOString() });
const sendLogs = (terminal: TestTerminal, logs: unknown[]) => signedCall(t, terminal, INTAKE_PATHS.logs, JSON.stringify({ logs }));
const search = async (token: string, url: string, body: Row = {}) => {
  const response = await t.injectAs(token, { method: 'POST', url, payload: { pageSize: 200, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items as Row[];
};

describe('terminal logs', () => {
  it('stores a batch once, in the device school, and answers accepted and duplicates', async () => {
    const batch = [logLine(1, 'relay stuck'), logLine(2, 'relay freed')];
    expect((await sendLogs(own, batch)).json().data).toEqual({ accepted: 2, duplicates: 0 });
    expect((await sendLogs(own, batch)).json().data).toEqual({ accepted: 0, duplicates: 2 });
    const rows = await search(admin, '/api/TerminalLog/Search', { deviceId: own.deviceId });
    expect(rows.map((row) => row.message).sort()).toEqual(['relay freed', 'relay stuck']);
    expect(rows.every((row) => row.schoolId === own.schoolId && row.deviceIdLabel === own.serialNumber && row.level === 'error')).toBe(true);
  });

  it("keeps each agent to its own terminals' logs, also through /api/Log/GetTerminalLogs", async () => {
    await sendLogs(foreign, [logLine(1, 'foreign line')]);
    for (const url of ['/api/TerminalLog/Search', '/api/Log/GetTerminalLogs']) {
      const seenBy1 = (await search(agent1, url)).map((row) => row.message);
      expect(seenBy1).toContain('relay stuck');
      expect(seenBy1).not.toContain('foreign line');
      const seenBy2 = (await search(agent2, url)).map((row) => row.message);
      expect(seenBy2).toContain('foreign line');
      expect(seenBy2).not.toContain('relay stuck');
    }
    // Terminals too: an agent sees only its own.
    const terminals = (await search(agent1, '/api/Terminal/Search')).map((row) => row.id);
    expect(terminals).toContain(own.id);
    expect(terminals).not.toContain(foreign.id);
  });

  it('answers the alias exactly as the Search', async () => {
    const [viaSearch, viaAlias] = await Promise.all([search(admin, '/api/TerminalLog/Search'), search(admin, '/api/Log/GetTerminalLogs')]);
    expect(viaAlias).toEqual(viaSearch);
  });
});
