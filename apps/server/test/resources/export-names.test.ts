import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The file name a browser saves: RFC 5987 `filename*` decoded. */
function savedName(contentDisposition: unknown): string {
  const extended = /filename\*=UTF-8''([^;]+)/.exec(String(contentDisposition));
  if (!extended) throw new Error(`no filename* in ${String(contentDisposition)}`);
  return decodeURIComponent(extended[1]!);
}

describe('export file names', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    // 17:30 UTC on 2 March is already 3 March in Shanghai: the name carries the business date.
    t.clock.advance(16.5 * 3_600_000);
    expect(t.clock.now().toISOString()).toBe('2026-03-02T17:30:00.000Z');
    admin = await t.loginAs('admin');
  });
  afterAll(() => t.close());

  const exportOf = async (url: string, lang: 'zh' | 'en') => {
    const response = await t.injectAs(admin, { method: 'GET', url: `${url}&lang=${lang}`, headers: { 'accept-language': lang } });
    expect(response.statusCode, response.body).toBe(200);
    return response.headers['content-disposition'];
  };

  it('names each page of one family after its menu title and the date in Asia/Shanghai', async () => {
    const names = await Promise.all(['codeManageA', 'codeManageB', 'signCardManage'].map(async (view) => savedName(await exportOf(`/api/License/Export?view=${view}`, 'zh'))));
    expect(names).toEqual(['闸机授权码-2026-03-03.xlsx', '考勤机授权码-2026-03-03.xlsx', '签到卡管理-2026-03-03.xlsx']);
    expect(savedName(await exportOf('/api/License/Export?view=codeManageB', 'en'))).toBe('Attendance-machine codes-2026-03-03.xlsx');
  });

  it('carries an ASCII fallback name for clients that read only filename', async () => {
    const header = String(await exportOf('/api/License/Export?view=signCardManage', 'zh'));
    expect(header).toMatch(/^attachment; filename="signCardManage-2026-03-03\.xlsx"; filename\*=UTF-8''/);
    expect(header).not.toMatch(/[^\x20-\x7e]/);
  });

  it('names log and report exports the same way', async () => {
    expect(savedName(await exportOf('/api/OperationLog/Export?view=mainOperationLog', 'zh'))).toBe('操作日志-2026-03-03.xlsx');
    expect(savedName(await exportOf('/api/DeviceStatistics/Export?view=productStatistics', 'en'))).toBe('Product statistics-2026-03-03.xlsx');
  });
});
