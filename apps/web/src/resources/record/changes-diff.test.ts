import { describe, expect, it } from 'vitest';
import { diffRows, recordsText } from './changes-diff';

describe('diffRows', () => {
  it("names fields and enum values in the family's labels", () => {
    const rows = diffRows('School', 'update', { schoolName: ['旧名', '新名'], schoolType: [1, 2] }, 'en', 'Deleted rows');
    expect(rows[0]).toMatchObject({ field: 'schoolName', before: '旧名', after: '新名' });
    expect(rows[0]!.label).not.toBe('schoolName');
    expect(rows[1]!.before).not.toBe('1');
    expect(rows[1]!.after).not.toBe('2');
  });

  it("lists a delete's titles as the rows removed, and an add without a before value", () => {
    expect(diffRows('School', 'delete', { titles: ['甲校', '乙校'] }, 'zh-CN', '删除的记录')).toEqual([
      { field: 'titles', label: '删除的记录', before: '甲校, 乙校', after: '' },
    ]);
    expect(diffRows('School', 'add', { schoolName: [null, '新校'] }, 'en', '')[0]).toMatchObject({ before: '', after: '新校' });
  });

  it('shows unknown families and fields by name', () => {
    expect(diffRows('Gone', 'update', { x: [{ a: 1 }, 2] }, 'en', '')).toEqual([{ field: 'x', label: 'x', before: '{"a":1}', after: '2' }]);
  });

  it("names a transition's inputs by their labels and referenced rows by the names the server read", () => {
    const labels = { records: { '15': 'WX20261127000015' }, values: { assigneeId: { '1': '系统管理员' } } };
    const rows = diffRows('MaintenanceTicket', 'assign', { assigneeId: 1, remark: '请尽快处理', state: [1, 2] }, 'zh-CN', '', labels);
    expect(rows).toEqual([
      { field: 'assigneeId', label: '处理人', before: '', after: '系统管理员' },
      { field: 'remark', label: '备注', before: '', after: '请尽快处理' },
      { field: 'state', label: '状态', before: '待处理', after: '已派单' },
    ]);
    expect(recordsText([15, 16], labels)).toBe('WX20261127000015, #16');
  });
});
