/**
 * Mandatory two-factor sign-in (issue 8, ASVS 4.3.1): with the company's policy on, a company
 * administrator without an authenticator gets code 603 after the password and sets one up on the
 * login page (QR code and key, first code, recovery codes once) before any session starts.
 *
 * The policy is switched by an account of this journey's own through the API (turning it on needs
 * the caller's own authenticator), and switched off again in afterAll whatever happened: while it
 * is on, admin and every other administrator without an authenticator cannot sign in, so a
 * journey after this one would fail for no reason of its own.
 */
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompanyAccount, apiLogin, call, md5 } from '../support/api';
import { CAPTCHA_CODE, launchBrowser, screenshot } from '../support/browser';
import { waitForMenu } from '../support/console';
import { journey } from '../support/journey';

/** Turns the policy on and off: a company administrator with an authenticator. */
const POLICY_HOLDER = { loginName: 'e2e-policy', password: 'Policy@12345', name: '双重验证策略管理员', phoneNum: '13900000992' };
/** Meets the policy at sign-in: a company administrator without an authenticator. */
const NEWCOMER = { loginName: 'e2e-mandatory', password: 'Mandatory@12345', name: '强制双重验证管理员', phoneNum: '13900000993' };

/** The code of a base32 secret `stepsAhead` periods from now (the server accepts one step either side, each step once). */
const codeOf = (secret: string, stepsAhead = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

/** Signs an account in through the API with its password (before it has an authenticator, so no second step). */
async function loginWithPassword(account: { loginName: string; password: string }): Promise<string> {
  const { vcId } = await call<{ vcId: string }>('/api/Account/GetVerificationCode');
  const answer = await call<{ Token: string }>('/api/Account/Login_web', {
    method: 'POST',
    body: JSON.stringify({ userName: account.loginName, password: md5(account.password), vcId, vcCode: CAPTCHA_CODE }),
  });
  return answer.Token;
}

/** Gives the policy holder an authenticator (its session stays open) and answers its token. */
async function enrolPolicyHolder(): Promise<string> {
  const token = await loginWithPassword(POLICY_HOLDER);
  const { secret } = await call<{ secret: string }>('/api/User/BeginTotp', { method: 'POST', body: JSON.stringify({ password: md5(POLICY_HOLDER.password) }) }, token);
  await call('/api/User/ConfirmTotp', { method: 'POST', body: JSON.stringify({ code: codeOf(secret) }) }, token);
  return token;
}

const setPolicy = (token: string, required: boolean) =>
  call<{ required: boolean }>('/api/CompanyUser/SaveTwoFactorPolicy', { method: 'POST', body: JSON.stringify({ required }) }, token);

async function passwordStep(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('captcha-image').locator('img[src^="data:image/"]').waitFor();
  await page.locator('#userName').fill(NEWCOMER.loginName);
  await page.locator('#password').fill(NEWCOMER.password);
  await page.locator('#vcCode').fill(CAPTCHA_CODE);
  await page.locator('form button[type="submit"]').click();
}

let browser: Browser;
let holderToken: string | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
  const adminToken = await apiLogin('admin');
  await addCompanyAccount(adminToken, POLICY_HOLDER);
  await addCompanyAccount(adminToken, NEWCOMER);
  holderToken = await enrolPolicyHolder();
  expect(await setPolicy(holderToken, true)).toEqual({ required: true });
});

afterAll(async () => {
  try {
    if (holderToken) await setPolicy(holderToken, false);
  } finally {
    await browser?.close();
  }
});

describe('an administrator without an authenticator signs in while two-factor sign-in is mandatory', () => {
  const session = journey('mandatory-two-factor', () => browser);
  let secret: string;

  it('answers the right password with the set-up step (603), not the console', async () => {
    const { page } = session();
    const login = page.waitForResponse((response) => response.url().endsWith('/api/Account/Login_web'));
    await passwordStep(page);
    expect(await (await login).json()).toMatchObject({ code: 603, data: { challenge: expect.any(String) } });
    const setup = page.getByTestId('two-factor-setup');
    await setup.getByText('公司管理员账号须使用双重验证登录', { exact: false }).waitFor();
    // The page says where the user is: past the password, not asked to sign in again.
    await page.getByText('密码已验证，还差一步').waitFor();
    await setup.locator('canvas').waitFor();
    secret = (await setup.getByTestId('setup-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(page.url()).pathname).toBe('/login');
    // No session yet: the set-up comes before it.
    expect(await page.evaluate(() => window.sessionStorage.getItem('campus-ops-session'))).toBeNull();
    await screenshot(page, 'mandatory-two-factor-01-setup');
  });

  it('sets up the authenticator with its first code, shows the recovery codes once, and lands in the console', async () => {
    const { page } = session();
    const setup = page.getByTestId('two-factor-setup');
    await setup.locator('#code').fill(codeOf(secret));
    await setup.locator('button[type="submit"]').click();
    const codes = page.getByTestId('setup-recovery-codes');
    await codes.locator('li').first().waitFor();
    const recoveryCodes = (await codes.locator('li').allTextContents()).map((text) => text.trim());
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    await screenshot(page, 'mandatory-two-factor-02-recovery-codes');
    await codes.getByRole('button', { name: '我已保存，进入系统' }).click();
    await page.waitForURL('**/index');
    await waitForMenu(page);
  });

  it('asks the enrolled administrator for a code at the next sign-in instead of a set-up', async () => {
    const { page } = session();
    await page.evaluate(() => window.sessionStorage.clear());
    await passwordStep(page);
    const form = page.getByTestId('second-factor-form');
    await form.waitFor();
    expect(await page.getByTestId('two-factor-setup').count()).toBe(0);
    // The set-up used this period's code; the next period's is accepted (one step of drift) and not yet used.
    await form.locator('#code').fill(codeOf(secret, 1));
    await form.locator('button[type="submit"]').click();
    await page.waitForURL('**/index');
    await waitForMenu(page);
  });
});
