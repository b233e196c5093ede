/**
 * ASVS 7.1.1 (issue 8): no credential, session token or payment secret reaches a log. The server
 * logs at trace level while a test drives every call that carries one — captcha and login, the
 * second factor and its enrolment, recovery codes, password and refund-password changes with SMS
 * codes, an administrator's password reset, authenticated calls with the bearer token, log-out — and
 * then every line written to standard output, the platform log, the operation log and the login log
 * is searched for each secret, in clear and as the MD5 the web sends.
 */
import { desc, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginAttempts, operationLog, smsOutbox, users } from '../../src/db/schema/index.js';
import { platformLogs } from '../../src/db/schema/resources.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { SMS_RESEND_INTERVAL_MS } from '../../src/platform/sms.js';
import { CAPTCHA_CODE, createTestApp, type TestApp } from '../helpers/test-app.js';

describe('secrets in the logs (ASVS 7.1.1)', () => {
  let t: TestApp;
  const output: string[] = [];
  /** Every secret the calls carried, as the test sent or received it. */
  const secrets = new Map<string, string>();
  const keep = (what: string, value: string) => {
    secrets.set(value, what);
    return value;
  };

  beforeAll(async () => {
    // pino writes to process.stdout (platform/log-destination.ts): keep its lines instead of printing them.
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
    t = await createTestApp({ env: { LOG_LEVEL: 'trace' } });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t.close();
  });

  const post = (token: string, url: string, payload: unknown) => t.injectAs(token, { method: 'POST', url, payload: payload as object });
  const latestCode = async (phone: string) => {
    const [message] = await t.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone)).orderBy(desc(smsOutbox.id)).limit(1);
    return keep('an SMS code', /\d{6}/.exec(message!.content)![0]);
  };

  /** Login_web with a captcha; answers the envelope. */
  async function passwordStep(userName: string, password: string, vcCode = CAPTCHA_CODE) {
    const captcha = await t.app.inject({ method: 'GET', url: '/api/Account/GetVerificationCode' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Account/Login_web',
      payload: { userName, password: keep('a password as MD5', md5Hex(keep('a password', password))), vcId: keep('a captcha id', captcha.json().data.vcId), vcCode },
    });
    return response.json();
  }

  it('drives every call that carries a secret', async () => {
    // A wrong password, an unknown name and a wrong captcha are logged as attempts: with their secrets?
    expect((await passwordStep('admin', 'Wrong@pass1')).code).toBe(600);
    expect((await passwordStep('nobody-here', 'Guess@pass2')).code).toBe(600);
    expect((await passwordStep('admin', 'Admin@123', '9876')).code).toBe(600);

    const admin = keep('a session token', (await passwordStep('admin', 'Admin@123')).data.Token);
    expect((await t.injectAs(admin, { method: 'GET', url: '/api/User/GetLoginUserInfo' })).statusCode).toBe(200);

    // Two-factor enrolment: the secret, a code and the recovery codes.
    const begun = (await post(admin, '/api/User/BeginTotp', { password: md5Hex('Admin@123') })).json();
    const totpSecret = keep('a TOTP secret', begun.data.secret);
    keep('an otpauth address', begun.data.uri);
    const totp = new TOTP({ secret: Secret.fromBase32(totpSecret), algorithm: 'SHA1', digits: 6, period: 30 });
    const codeAt = (steps: number) => keep('a TOTP code', totp.generate({ timestamp: t.clock.now().getTime() + steps * 30_000 }));
    const confirmed = (await post(admin, '/api/User/ConfirmTotp', { code: codeAt(0) })).json();
    expect(confirmed.code).toBe(200);
    const recoveryCodes = (confirmed.data.recoveryCodes as string[]).map((code) => keep('a recovery code', code));

    // Sign-in with the second factor: the challenge, a code, a recovery code.
    t.clock.advance(60_000);
    const challenge = keep('a login challenge', (await passwordStep('admin', 'Admin@123')).data.challenge);
    const second = (await t.app.inject({ method: 'POST', url: '/api/Account/LoginSecondFactor', payload: { challenge, code: codeAt(0) } })).json();
    const adminAgain = keep('a session token', second.data.Token);
    const byRecovery = keep('a login challenge', (await passwordStep('admin', 'Admin@123')).data.challenge);
    keep('a session token', (await t.app.inject({ method: 'POST', url: '/api/Account/LoginSecondFactor', payload: { challenge: byRecovery, code: recoveryCodes[0] } })).json().data.Token);

    // The refund password and the login password, each with an SMS code.
    await post(adminAgain, '/api/User/SendSmsCode', { purpose: 'refundPassword' });
    const refund = await post(adminAgain, '/api/User/UpdateRefundPassword', {
      loginPassword: md5Hex('Admin@123'),
      refundPassword: keep('a refund password as MD5', md5Hex(keep('a refund password', 'Refund@987'))),
      smsCode: await latestCode('13800000001'),
    });
    expect(refund.json().code).toBe(200);
    t.clock.advance(SMS_RESEND_INTERVAL_MS);
    const agent = keep('a session token', (await passwordStep('agent1', 'Demo@123')).data.Token);
    await post(agent, '/api/User/SendSmsCode', { purpose: 'password' });
    const [agentRow] = await t.db.select().from(users).where(eq(users.loginName, 'agent1'));
    const changed = await post(agent, '/api/User/UpdateLoginUserPassword', {
      oldPassword: md5Hex('Demo@123'),
      newPassword: keep('a password as MD5', md5Hex(keep('a password', 'Agent@New55'))),
      smsCode: await latestCode(agentRow!.phoneNum!),
    });
    expect(changed.json().code).toBe(200);

    // An administrator sets another account's password (written to the operation log as a change).
    const [sales] = await t.db.select().from(users).where(eq(users.loginName, 'sales1'));
    const reset = await post(adminAgain, '/api/CompanyUser/Update?view=userCompany', { id: sales!.id, version: sales!.version, password: keep('a password as MD5', md5Hex(keep('a password', 'Sales@Reset77'))) });
    expect(reset.json().code, reset.body).toBe(200);

    // Turning two-factor off with the password and a code; log-out.
    t.clock.advance(60_000);
    expect((await post(adminAgain, '/api/User/DisableTotp', { password: md5Hex('Admin@123'), code: codeAt(0) })).json().code).toBe(200);
    expect((await post(agent, '/api/Account/Logout', {})).json().code).toBe(200);
  });

  it('finds none of them in standard output, the platform log, the operation log or the login log', async () => {
    // Let the platform log's batch reach the table.
    await t.app.close();
    const tables = [
      ...(await t.db.select().from(platformLogs)),
      ...(await t.db.select().from(operationLog)),
      ...(await t.db.select().from(loginAttempts)),
    ].map((row) => JSON.stringify(row));
    const lines = output.join('').split('\n').filter((line) => line.startsWith('{'));
    // The logger did write: one line per request at least, so an empty search proves nothing false.
    expect(lines.filter((line) => line.includes('"url":"/api/Account/Login_web"')).length).toBeGreaterThanOrEqual(4);
    expect(tables.some((row) => row.includes('"password"'))).toBe(true);
    expect(secrets.size).toBeGreaterThan(20);
    const found = [...secrets].flatMap(([secret, what]) =>
      [...lines, ...tables].filter((line) => line.includes(secret)).map((line) => `${what} in ${line.slice(0, 300)}`),
    );
    expect(found).toEqual([]);
  });
});
