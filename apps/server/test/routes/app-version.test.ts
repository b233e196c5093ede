import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appVersions } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const ANDROID = 1;
const IOS = 2;
const PARENT_APP = 1;
const TEACHER_APP = 2;

describe('GET /api/AppVersion/Latest', () => {
  let t: TestApp;

  const latest = (query: string) => t.app.inject({ method: 'GET', url: `/api/AppVersion/Latest?${query}` });

  beforeAll(async () => {
    t = await createTestApp();
    // These cases need a known list of releases: the demo's own are removed first.
    await t.db.delete(appVersions);
    const release = (versionCode: number, extra: Partial<typeof appVersions.$inferInsert> = {}) => ({
      osType: ANDROID,
      appType: PARENT_APP,
      versionNumber: `3.0.${versionCode}`,
      versionCode,
      isEnabled: true,
      isForceUpgrade: false,
      updateContent: `release ${versionCode}`,
      downloadUrl: 'https://example.com/parent.apk',
      ...extra,
    });
    await t.db.insert(appVersions).values([
      release(100),
      release(110, { isForceUpgrade: true }),
      release(120),
      // Disabled releases are never offered and never force anything.
      release(130, { isEnabled: false, isForceUpgrade: true }),
      release(200, { appType: TEACHER_APP, isEnabled: false }),
      release(300, { osType: IOS, downloadUrl: 'https://apps.apple.com/app/id1' }),
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers the newest enabled version without a session, forced when a skipped release is forced', async () => {
    const response = await latest(`osType=${ANDROID}&appType=${PARENT_APP}&versionCode=105`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      versionNumber: '3.0.120',
      versionCode: 120,
      updateContent: 'release 120',
      downloadUrl: 'https://example.com/parent.apk',
      isForceUpgrade: true,
    });
  });

  it('is not forced once the caller is past the forced release', async () => {
    const response = await latest(`osType=${ANDROID}&appType=${PARENT_APP}&versionCode=110`);
    expect(response.json().data).toMatchObject({ versionCode: 120, isForceUpgrade: false });
  });

  it('answers null when the caller is up to date, disabled releases aside', async () => {
    expect((await latest(`osType=${ANDROID}&appType=${PARENT_APP}&versionCode=120`)).json()).toMatchObject({ code: 200, data: null });
    expect((await latest(`osType=${ANDROID}&appType=${TEACHER_APP}&versionCode=1`)).json().data).toBeNull();
  });

  it('keeps each OS to its own releases', async () => {
    expect((await latest(`osType=${IOS}&appType=${PARENT_APP}&versionCode=0`)).json().data).toMatchObject({ versionCode: 300, downloadUrl: 'https://apps.apple.com/app/id1' });
  });

  it('refuses a bad query with field errors', async () => {
    for (const query of [`osType=7&appType=${PARENT_APP}&versionCode=1`, `osType=${ANDROID}&appType=${PARENT_APP}&versionCode=abc`, `osType=${ANDROID}&versionCode=1`]) {
      const response = await latest(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().data.errors.length, query).toBeGreaterThan(0);
    }
  });

  it('signs an uploaded package for the caller', async () => {
    const key = '2026/03/AAAAAAAAAAAAAAAAAAAAAA.apk';
    await t.db.insert(appVersions).values({
      osType: ANDROID,
      appType: TEACHER_APP,
      versionNumber: '1.0.0',
      versionCode: 5,
      isEnabled: true,
      updateContent: 'first',
      downloadUrl: `/uploads/${key}`,
    });
    const url = (await latest(`osType=${ANDROID}&appType=${TEACHER_APP}&versionCode=1`)).json().data.downloadUrl as string;
    expect(url).toMatch(new RegExp(`^/uploads/${key}\\?e=\\d+&s=`));
  });
});
