import { describe, expect, it } from 'vitest';
import { FRAMES } from '../menu.js';
import { BADGE_PENDING_FILTERS } from './badge-filters.js';
import { familiesOfFrame } from './index.js';

describe('BADGE_PENDING_FILTERS', () => {
  it("names only declared filters of the badge's page, with values of the field's kind", () => {
    const checked: string[] = [];
    for (const frame of FRAMES) {
      const filters = frame.badge ? BADGE_PENDING_FILTERS[frame.badge] : undefined;
      if (!filters) continue;
      const def = familiesOfFrame(frame.index)[0];
      expect(def, frame.index).toBeDefined();
      for (const [name, value] of Object.entries(filters)) {
        const field = def!.fields[name];
        expect(field?.filter, `${frame.index}.${name}`).toBe('equals');
        if (field?.kind === 'enum') expect(field.options.map((option) => option.value), `${frame.index}.${name}`).toContain(value);
        if (field?.kind === 'bool') expect(typeof value).toBe('boolean');
        checked.push(`${frame.index}.${name}`);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['schoolManage.licenseKeyRequired', 'refundManage.state', 'userTemperature.acknowledged']));
  });
});
