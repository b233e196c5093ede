/** The one list of report modules: start-up refuses, in one line, a list that disagrees with the declared reports. */
import { DeviceStatistics, REPORTS } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkReportModules, REPORT_MODULES } from '../../src/reports/index.js';
import { defineReportSource } from '../../src/reports/source.js';

describe('REPORT_MODULES', () => {
  it('holds one module for every declared report', () => {
    expect(() => checkReportModules(REPORT_MODULES)).not.toThrow();
    expect(REPORT_MODULES.map((module) => module.def.name).sort()).toEqual(Object.keys(REPORTS).sort());
  });

  it('refuses a report listed twice, a report without a source and a module of an undeclared report', () => {
    expect(() => checkReportModules([...REPORT_MODULES, REPORT_MODULES[0]!])).toThrow(`report ${REPORT_MODULES[0]!.def.name} is listed twice in REPORT_MODULES`);
    const withoutDevices = REPORT_MODULES.filter((module) => module.def !== DeviceStatistics);
    expect(() => checkReportModules(withoutDevices)).toThrow('report DeviceStatistics has no source in REPORT_MODULES');
    const stranger = defineReportSource({ ...DeviceStatistics, name: 'Stranger' }, { grouped: () => sql`select 1` });
    expect(() => checkReportModules([...REPORT_MODULES, stranger])).toThrow("report Stranger is not declared in the contract's REPORTS");
  });
});
