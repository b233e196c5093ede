/**
 * Two-factor sign-in (issue 8, ASVS 4.3.1): a company administrator turns TOTP on from its own
 * profile (QR code, first code, recovery codes shown once), then signs in with the password and a
 * second step, in Chinese and in English, and turns it off again with a recovery code.
 */
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompanyAccount, apiLogin } from '../support/api';
import { CAPTCHA_CODE, launchBrowser, screenshot } from '../support/browser';
import { switchLanguage, waitForMenu } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** An account of its own, so admin's logins in the other journeys never meet a second step. */
const ACCOUNT = { loginName: 'e2e-totp', password: 'Totp@12345', name: '双重验证管理员', phoneNum: '13900000991' };

async function passwordStep(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('captcha-image').locator('img[src^="data:image/"]').waitFor();
  await page.locator('#userName').fill(ACCOUNT.loginName);
  await page.locator('#password').fill(ACCOUNT.password);
  await page.locator('#vcCode').fill(CAPTCHA_CODE);
  await page.locator('form button[type="submit"]').click();
}

describe('an administrator turns on two-factor sign-in and signs in with it', () => {
  const session = journey('two-factor', () => browser);
  let secret: string;
  let recoveryCodes: string[];
  /** The authenticator's code `stepsAhead` periods from now (the server accepts one step either side, each step once). */
  const code = (stepsAhead = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

  beforeAll(async () => {
    await addCompanyAccount(await apiLogin('admin'), ACCOUNT);
  });

  it('sets it up on the profile page: password, QR code and key, first code, recovery codes once', async () => {
    const { page } = session();
    await passwordStep(page);
    await page.waitForURL('**/index');
    await waitForMenu(page);
    await page.goto('/personalInformation');
    const card = page.getByTestId('two-factor-card');
    await card.getByText('未启用').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'two-factor-01-profile-off');
    await card.locator('#password').fill(ACCOUNT.password);
    await card.getByRole('button', { name: '开始设置' }).click();
    await card.getByTestId('totp-enrolment').locator('canvas').waitFor();
    secret = (await card.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'two-factor-02-scan');
    await card.locator('#code').fill(code());
    await card.getByRole('button', { name: '启 用' }).or(card.getByRole('button', { name: '启用' })).click();
    const codes = card.getByTestId('recovery-codes');
    await codes.locator('li').first().waitFor();
    recoveryCodes = (await codes.locator('li').allTextContents()).map((text) => text.trim());
    expect(recoveryCodes).toHaveLength(10);
    await expect.poll(() => card.locator('.ant-tag').textContent()).toBe('已启用');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'two-factor-03-recovery-codes');
    await card.getByRole('button', { name: '我已保存' }).click();
    await card.getByText('剩余恢复码：10 个', { exact: false }).waitFor();
  });

  it('asks for the code after the password, refuses a wrong one, and signs in with the right one', async () => {
    const { page } = session();
    await page.evaluate(() => window.sessionStorage.clear());
    await passwordStep(page);
    const form = page.getByTestId('second-factor-form');
    await form.waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    // Half a million away from the next code is never a code the server accepts now.
    await form.locator('#code').fill(String((Number(code(1)) + 500_000) % 1_000_000).padStart(6, '0'));
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => page.getByTestId('login-message').textContent()).toBe('动态码或恢复码错误');
    await screenshot(page, 'two-factor-04-second-step-zh');
    // The enrolment used this period's code; the next period's is accepted (one step of drift) and not yet used.
    await form.locator('#code').fill(code(1));
    await page.waitForTimeout(3_100); // the submit button stays blocked for 3 s after a click (prevent-double-click)
    await form.locator('button[type="submit"]').click();
    await page.waitForURL('**/index');
    await waitForMenu(page);
  });

  it('shows the second step in English, signs in with a recovery code, and turns it off with another', async () => {
    const { page } = session();
    await switchLanguage(page, 'English');
    await page.evaluate(() => window.sessionStorage.clear());
    await passwordStep(page);
    const form = page.getByTestId('second-factor-form');
    await form.getByText('Open your authenticator app').waitFor();
    await screenshot(page, 'two-factor-05-second-step-en');
    await form.locator('#code').fill(recoveryCodes[0]!);
    await form.locator('button[type="submit"]').click();
    await page.waitForURL('**/index');
    await page.goto('/personalInformation');
    const card = page.getByTestId('two-factor-card');
    await card.getByText('Recovery codes left: 9', { exact: false }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'two-factor-06-profile-on-en');
    await card.locator('#password').fill(ACCOUNT.password);
    await card.locator('#code').fill(recoveryCodes[1]!);
    await card.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await expect.poll(() => card.locator('.ant-tag').textContent()).toBe('Off');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'two-factor-07-profile-off-en');
  });
});
