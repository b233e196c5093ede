import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:8300';
const [,, locale = 'zh-CN', width = '1366', ...routes] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: Number(width), height: 860 }, locale });
await page.goto(base + '/login');
if (locale === 'en') await page.evaluate(() => localStorage.setItem('campus.locale', 'en'));
await page.fill('input[autocomplete="username"]', 'admin');
await page.fill('input[type="password"]', 'Admin@123');
await page.fill('input[placeholder*="验证码"], input[placeholder*="code" i]', '1234');
await page.keyboard.press('Enter');
await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20000 });
for (const route of routes) {
  await page.goto(base + '/' + route);
  await page.waitForTimeout(2500);
  await page.screenshot({ path: `/tmp/shotsout/${route.replace(/\W/g, '_')}-${locale}-${width}.png` });
}
await browser.close();
