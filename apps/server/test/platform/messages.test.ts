import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
});
afterAll(() => t.close());

const inChinese = { 'accept-language': 'zh-CN,zh;q=0.9' };

describe('messages by key', () => {
  it('answers a missing record in Chinese with its key and parameters', async () => {
    const response = await t.injectAs(admin, { method: 'GET', url: '/api/School/Get?id=999999', headers: inChinese });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 404, key: 'error.recordNotFound', message: '学校 999999 不存在', params: { id: 999999 } });
  });

  it('writes zod field errors as catalogue messages in the caller language', async () => {
    const body = { schoolName: 'x'.repeat(101), province: '浙江省', schoolType: 9 };
    const chinese = await t.injectAs(admin, { method: 'POST', url: '/api/School/Add', payload: body, headers: inChinese });
    expect(chinese.statusCode).toBe(400);
    const errors = chinese.json().data.errors as { path: string; key: string; message: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'schoolName', key: 'validation.tooLong', message: '最多 100 个字符' }),
        expect.objectContaining({ path: 'city', key: 'validation.required', message: '必填' }),
        expect.objectContaining({ path: 'schoolType', key: 'validation.oneOf' }),
      ]),
    );
    const english = await t.injectAs(admin, { method: 'POST', url: '/api/School/Add', payload: body });
    expect(english.json().data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'schoolName', message: 'must have at most 100 characters' })]));
  });

  it('decodes the schema messages the contract encodes (a phone number)', async () => {
    const response = await t.injectAs(admin, {
      method: 'POST',
      url: '/api/Teacher/Add',
      payload: { schoolId: 1, name: '张老师', phoneNum: '123' },
      headers: inChinese,
    });
    expect(response.json().data.errors).toEqual([expect.objectContaining({ path: 'phoneNum', key: 'validation.mobile', message: '请输入 11 位手机号' })]);
  });

  it('answers Chinese when the caller names no language', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/User/GetLoginUserInfo', headers: { 'accept-language': '' } });
    expect(response.json()).toMatchObject({ code: '10010', key: 'auth.tokenInvalid', message: '登录已失效，请重新登录' });
  });
});
