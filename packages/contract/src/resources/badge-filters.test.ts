import { describe, expect, it } from 'vitest';
import { FRAMES } from '../menu.js';
import { PENDING_LIST_FILTERS } from './badge-filters.js';
import { familiesOfFrame } from './index.js';

describe('PENDING_LIST_FILTERS', () => {
  it("names only declared filters of the badge's page, with values of the field's kind", () => {
    const checked: string[] = [];
    for (const [index, filters] of Object.entries(PENDING_LIST_FILTERS)) {
      const frame = FRAMES.find((candidate) => candidate.index === index);
      expect(frame?.badge, `${index} shows a badge`).toBeDefined();
      const def = familiesOfFrame(index)[0];
      expect(def, index).toBeDefined();
      for (const [name, value] of Object.entries(filters ?? {})) {
        const field = def!.fields[name];
        const values = Array.isArray(value) ? value : [value];
        expect(field?.filter, `${index}.${name}`).toBe(Array.isArray(value) ? 'in' : 'equals');
        if (field?.kind === 'enum') for (const one of values) expect(field.options.map((option) => option.value), `${index}.${name}`).toContain(one);
        if (field?.kind === 'bool') expect(typeof value).toBe('boolean');
        checked.push(`${index}.${name}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'schoolManage.licenseKeyRequired',
        'refundManage.state',
        'userTemperature.acknowledged',
        'equipmentMaintenance.state',
        'deviceInformation.licensePending',
        'schoolMerchantsManage.splitRuleSet',
      ]),
    );
  });
});
