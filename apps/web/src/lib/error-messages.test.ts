import { describe, expect, it } from 'vitest';
import { describeFailure, type FailureFacts } from './error-messages';

const url = '/api/School/Search';
const facts = (overrides: Partial<FailureFacts>): FailureFacts => ({ status: 200, code: null, serverMessage: '', url, ...overrides });

describe('describeFailure', () => {
  it.each([
    [400, 'request error', '请求错误'],
    [401, 'unauthorized, please log in', '未授权，请登录'],
    [403, 'access denied', '拒绝访问'],
    [404, `address not found: ${url}`, `请求地址出错: ${url}`],
    [408, 'timeout', '请求超时'],
    [500, 'internal server error', '服务器内部错误'],
    [501, 'not implemented', '服务未实现'],
    [502, 'bad gateway', '网关错误'],
    [503, 'service unavailable', '服务不可用'],
    [504, 'gateway timeout', '网关超时'],
    [505, 'HTTP version unsupported', 'HTTP版本不受支持'],
  ])('maps HTTP %i to its catalogue text', (status, english, chinese) => {
    expect(describeFailure(facts({ status }), 'en')).toEqual({ kind: 'http', message: english });
    expect(describeFailure(facts({ status }), 'zh-CN')).toEqual({ kind: 'http', message: chinese });
  });

  it('adds the server reason after "request error" for a 400', () => {
    expect(describeFailure(facts({ status: 400, code: 400, serverMessage: 'SMS code expired' }), 'en').message).toBe('request error: SMS code expired');
  });

  it('quotes the request id of a 500', () => {
    expect(describeFailure(facts({ status: 500, code: 500, requestId: 'req-7' }), 'en').message).toBe('internal server error (request id req-7)');
  });

  it.each(['10010', '10011'])('ends the session for code %s, whatever the HTTP status', (code) => {
    expect(describeFailure(facts({ status: 401, code }), 'en').kind).toBe('sessionEnded');
    expect(describeFailure(facts({ status: 200, code }), 'en').kind).toBe('sessionEnded');
  });

  it('shows "password error" for a wrong password under code 600', () => {
    expect(describeFailure(facts({ code: 600, serverMessage: 'password error' }), 'en')).toEqual({ kind: 'loginMessage', message: 'password error' });
    expect(describeFailure(facts({ code: 600, serverMessage: 'password error' }), 'zh-CN').message).toBe('密码错误');
  });

  it('shows the server message for any other code 600', () => {
    expect(describeFailure(facts({ code: 600, serverMessage: 'account locked for 10 minutes' }), 'en')).toEqual({
      kind: 'loginMessage',
      message: 'account locked for 10 minutes',
    });
  });

  it('asks to verify the phone for code 601', () => {
    expect(describeFailure(facts({ code: 601, serverMessage: 'x' }), 'en')).toEqual({
      kind: 'mustChangePassword',
      message: 'verify your phone and set a new password',
    });
  });

  it('asks for the authenticator code for code 602', () => {
    expect(describeFailure(facts({ code: 602, serverMessage: 'x' }), 'en')).toEqual({
      kind: 'secondFactorRequired',
      message: 'enter the code from your authenticator app',
    });
  });

  it("shows code, message and url for code 'xxx'", () => {
    expect(describeFailure(facts({ code: 'xxx', serverMessage: 'odd answer' }), 'en')).toEqual({
      kind: 'codeXxx',
      message: `xxx: odd answer (${url})`,
    });
  });

  it('shows the server message for other codes', () => {
    expect(describeFailure(facts({ code: 409, status: 409, serverMessage: 'name already exists' }), 'en')).toEqual({
      kind: 'business',
      message: 'name already exists',
    });
    expect(describeFailure(facts({ code: 1234, serverMessage: 'quota used up' }), 'zh-CN').message).toBe('quota used up');
  });

  it('reports a missing answer as a network error', () => {
    expect(describeFailure(facts({ status: 0 }), 'en')).toEqual({ kind: 'network', message: 'network error, please check your connection' });
  });
});
