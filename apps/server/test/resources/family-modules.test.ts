/** The one list of families and of their server modules: start-up refuses, in one line, a list the server cannot run. */
import { defineResource, FAMILY_LIST, FeverThresholdSetting, MaintenanceTicket, RESOURCES, School, SchoolClass, SETTINGS, Terminal, TerminalSettingsSetting } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFamilyModules, checkSettings, defineFamilyModule, FamilyModuleError } from '../../src/resources/engine/modules.js';
import { checkFamilyTables, FAMILY_MODULES, installFamilies, missingFamilyTables } from '../../src/resources/families.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** A family declared here only: no migration ever made its table. */
const Unmigrated = defineResource({
  name: 'Unmigrated',
  label: { zh: '未迁移', en: 'Unmigrated' },
  table: 'unmigrated_rows',
  views: [{ frame: 'schoolManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  fields: { name: { kind: 'text', label: { zh: '名称', en: 'Name' }, required: true, max: 20 } },
});

/** Refused with FamilyModuleError, in one line naming the problem. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FamilyModuleError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('not refused');
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => {
  // The tests below install lists of their own: put the server's back for any later test in this worker.
  installFamilies();
  return t.close();
});

describe('the family lists', () => {
  it('holds every declared family once and every server module once, each for a declared family', () => {
    expect(new Set(FAMILY_LIST.map((def) => def.name)).size).toBe(FAMILY_LIST.length);
    expect(Object.keys(RESOURCES)).toHaveLength(FAMILY_LIST.length);
    for (const module of FAMILY_MODULES) expect(RESOURCES[module.family.name]).toBe(module.family);
    expect(() => installFamilies()).not.toThrow();
  });

  it('refuses a family declared twice', () => {
    expect(refusal(() => installFamilies([...FAMILY_LIST, School], FAMILY_MODULES))).toBe(
      'family School is listed twice in the declarations (packages/contract/src/resources/index.ts)',
    );
  });

  it('refuses a server module listed twice', () => {
    const [first] = FAMILY_MODULES;
    expect(refusal(() => installFamilies(FAMILY_LIST, [...FAMILY_MODULES, first!]))).toBe(`family ${first!.family.name} is listed twice in the server's modules (resources/families.ts)`);
  });

  it('refuses hooks and actions for a family that is not declared', () => {
    const orphan = defineFamilyModule(Unmigrated, { beforeWrite: (_ctx, { values }) => values });
    expect(refusal(() => installFamilies(FAMILY_LIST, [...FAMILY_MODULES, orphan]))).toBe('the server module of Unmigrated names a family that is not declared: add it to RESOURCES');
    // A same-named declaration that is not the listed one is as unknown: the module would check against the wrong fields.
    const lookalike = defineFamilyModule({ ...SchoolClass }, {});
    expect(refusal(() => checkFamilyModules(FAMILY_LIST, [lookalike]))).toBe('the server module of SchoolClass names a family that is not declared: add it to RESOURCES');
  });

  it('refuses a declared action without a handler, and a handler for an undeclared action or transition', () => {
    expect(refusal(() => defineFamilyModule(Terminal, {}))).toBe("Terminal: action 'IssueSecret' is declared but has no handler");
    expect(refusal(() => defineFamilyModule(Unmigrated, { actions: { Archive: async () => null } }))).toBe("Unmigrated: handler for undeclared action 'Archive'");
    expect(refusal(() => defineFamilyModule(MaintenanceTicket, { transitions: { Teleport: async () => undefined } }))).toBe("MaintenanceTicket: hook for undeclared transition 'Teleport'");
  });

  it('installs each seam handler from the one module that gives it, and refuses one given twice', () => {
    const givers = FAMILY_MODULES.flatMap((module) => Object.entries(module.seams ?? {}).flatMap(([group, handlers]) => Object.keys(handlers ?? {}).map((name) => `${group}.${name} ${module.family.name}`)));
    expect(givers.sort()).toEqual(['intake.commands TerminalCommand', 'intake.screen Poster', 'intake.upgrades TerminalAppUpgrade', 'notifications.payment PaymentRecord', 'notifications.refund Refund']);
    const commands = FAMILY_MODULES.find((module) => module.family.name === 'TerminalCommand')!.seams!.intake!.commands!;
    const twice = FAMILY_MODULES.map((module) => (module.family === MaintenanceTicket ? { ...module, seams: { intake: { commands } } } : module));
    expect(refusal(() => installFamilies(FAMILY_LIST, twice))).toBe('seam intake.commands is handled twice (MaintenanceTicket and TerminalCommand)');
  });

  it('finds every declared family its table in the migrated database', async () => {
    expect(await missingFamilyTables(t.db)).toEqual(new Map());
    await expect(checkFamilyTables(t.db)).resolves.toBeUndefined();
  });

  it('refuses a declared family whose table no migration made', async () => {
    await expect(checkFamilyTables(t.db, [...FAMILY_LIST, Unmigrated])).rejects.toThrow(
      new FamilyModuleError('family Unmigrated has no table unmigrated_rows: generate its migration (npm run db:generate -w apps/server)'),
    );
  });

  it('refuses a declared setting without a store, stored twice, or stored by another family', () => {
    expect(() => checkSettings(SETTINGS, FAMILY_MODULES)).not.toThrow();
    const withoutTerminal = FAMILY_MODULES.map((module) => (module.family === Terminal ? { ...module, settings: [] } : module));
    expect(refusal(() => checkSettings(SETTINGS, withoutTerminal))).toBe("setting terminalSettings has no store: add it to the settings of Terminal's module");
    const store = { read: async () => ({}), write: async () => undefined };
    const twice = [...FAMILY_MODULES, defineFamilyModule(Unmigrated, { settings: [{ def: TerminalSettingsSetting, store }] })];
    expect(refusal(() => checkSettings(SETTINGS, twice))).toBe('setting terminalSettings is stored twice (Terminal and Unmigrated)');
    const elsewhere = FAMILY_MODULES.map((module) => {
      if (module.family.name === 'FeverAlert') return { ...module, settings: [] };
      return module.family === Terminal ? { ...module, settings: [...(module.settings ?? []), { def: FeverThresholdSetting, store }] } : module;
    });
    expect(refusal(() => checkSettings(SETTINGS, elsewhere))).toBe('setting feverThreshold belongs to FeverAlert, not to Terminal');
  });
});
