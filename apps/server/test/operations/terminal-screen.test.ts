import { formatBusinessDate } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf, unique } from '../resources/fixtures.js';
import { heartbeat, registerTerminal, type TestTerminal } from '../terminals/intake-support.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let terminal: TestTerminal;
let ownSchool: number;
let otherSchool: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  [ownSchool, otherSchool] = [(await schoolIdsOf(t, 'agent1'))[0]!, (await schoolIdsOf(t, 'agent2'))[0]!];
  terminal = await registerTerminal(t, admin, ownSchool);
});
afterAll(() => t.close());

const dayOffset = (days: number) => formatBusinessDate(new Date(t.clock.now().getTime() + days * 86_400_000));

async function addAd(extra: Row): Promise<number> {
  const body = { kind: 2, image: 'https://example.com/ad.png', title: `广告${unique()}`, displaySeconds: 15, startDate: dayOffset(-1), endDate: dayOffset(5), audience: 1, ...extra };
  const response = await t.injectAs(admin, { method: 'POST', url: '/api/Poster/Add?view=terminalAd', payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as number;
}

async function addText(extra: Row): Promise<void> {
  const body = { schoolId: ownSchool, content: `文案${unique()}`, startDate: dayOffset(-1), endDate: dayOffset(5), ...extra };
  const response = await t.injectAs(admin, { method: 'POST', url: '/api/ScreenChatContent/Add?view=setChatContent', payload: body });
  expect(response.statusCode, response.body).toBe(200);
}

describe('the heartbeat answer carries what the screen shows', () => {
  it("hands out exactly the enabled ads in their window whose audience reaches the device's school", async () => {
    const [school] = await t.db.select({ province: schools.province, city: schools.city }).from(schools).where(eq(schools.id, ownSchool));
    const reaching = [
      await addAd({ audience: 1 }),
      await addAd({ audience: 3, schoolIds: [ownSchool, otherSchool] }),
      await addAd({ audience: 2, province: school!.province }),
      await addAd({ audience: 2, province: school!.province, city: school!.city }),
    ];
    const missing = [
      await addAd({ audience: 3, schoolIds: [otherSchool] }),
      await addAd({ audience: 2, province: school!.province === '新疆维吾尔自治区' ? '西藏自治区' : '新疆维吾尔自治区' }),
      await addAd({ startDate: dayOffset(2), endDate: dayOffset(9) }),
      await addAd({ startDate: dayOffset(-9), endDate: dayOffset(-2) }),
      await addAd({ enabled: false }),
    ];
    // An app poster is never a terminal's.
    const poster = await t.injectAs(admin, { method: 'POST', url: '/api/Poster/Add?view=appImage', payload: { kind: 1, image: 'https://example.com/p.png', title: 'app', displaySeconds: 5, startDate: dayOffset(-1), endDate: dayOffset(5), audience: 1 } });
    missing.push(poster.json().data.id as number);

    const response = await heartbeat(t, terminal);
    expect(response.statusCode, response.body).toBe(200);
    const ads = response.json().data.ads as { id: number; imageUrl: string; displaySeconds: number }[];
    const handed = ads.map((ad) => ad.id);
    for (const id of reaching) expect(handed).toContain(id);
    for (const id of missing) expect(handed).not.toContain(id);
    expect(ads.find((ad) => ad.id === reaching[0])).toMatchObject({ imageUrl: 'https://example.com/ad.png', displaySeconds: 15 });
  });

  it("hands out the school's screen texts in their window, the device's own first", async () => {
    const own = `本机文案${unique()}`;
    await addText({ content: own, deviceId: terminal.deviceId });
    const school = `全校文案${unique()}`;
    await addText({ content: school });
    await addText({ content: `过期${unique()}`, startDate: dayOffset(-9), endDate: dayOffset(-2) });
    const texts = (await heartbeat(t, terminal)).json().data.screenTexts as string[];
    expect(texts[0]).toBe(own);
    expect(texts).toContain(school);
    expect(texts.some((text) => text.startsWith('过期'))).toBe(false);
  });
});
