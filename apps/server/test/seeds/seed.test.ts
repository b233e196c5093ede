import { count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { seedDefaults } from '../../src/seeds/defaults.js';
import { seedDemo } from '../../src/seeds/demo.js';
import { MissingInitialPasswordError, ensureInitialAdmin } from '../../src/seeds/initial-admin.js';
import { appMusics, appStartupPages, grants, questionnaireAnswers, questionnaires, recognitionRecords, schools, terminalAppVersions, terminals, uploadedFiles, users } from '../../src/db/schema/index.js';
import { uploadKeyOf } from '@campus/contract';
import { createHash } from 'node:crypto';
import { parseBuffer } from 'music-metadata';
import { md5Hex, verifyPassword } from '../../src/platform/passwords.js';
import { createMigratedDatabase, createTestApp, type TestApp } from '../helpers/test-app.js';

// A copy of the run's migrated template: migrating afresh here came near the test timeout on a busy machine.
const emptyDatabase = createMigratedDatabase;

describe('seeding', () => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  // These only read what the run's demo-seeded template holds (the first also seeds again, which must
  // add nothing): one app on one copy of it serves them all, where one each cost a copy and an app.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('seeds the demo data once: a second run adds nothing', async () => {
    const totals = async () => ({
      users: (await t.db.select({ total: count() }).from(users))[0]!.total,
      schools: (await t.db.select({ total: count() }).from(schools))[0]!.total,
    });
    const before = await totals();
    expect(before).toEqual({ users: 9, schools: 8 });
    expect(await seedDemo(t.db)).toBe(false);
    await seedDefaults(t.db);
    expect(await totals()).toEqual(before);
  });

  it("names the demo children of a class apart, and each parent and pick-up person with their (first) child's surname and a grown-up's given name", async () => {
    const rows = (await t.db.execute(sql`
      select p.name as adult, s.name as child from parents p
        join students s on s.id = (select min(ps.student_id) from parent_students ps where ps.parent_id = p.id)
      union all select u.name, s.name from pick_up_persons u join students s on s.id = u.student_id`)) as unknown as { rows: { adult: string; child: string }[] };
    const parentNames = (await t.db.execute(sql`select name from parents`)) as unknown as { rows: { name: string }[] };
    expect(rows.rows.length).toBeGreaterThan(200);
    expect(new Set(parentNames.rows.map((row) => row.name)).size).toBe(parentNames.rows.length);
    const classes = (await t.db.execute(sql`select count(distinct substr(name, 2))::int as given, count(*)::int as children from students group by class_id`)) as unknown as { rows: { given: number; children: number }[] };
    expect(classes.rows.every((row) => row.given === row.children)).toBe(true);
    for (const { adult, child } of rows.rows) {
      expect(adult.slice(0, 1), `${adult} of ${child}`).toBe(child.slice(0, 1));
      expect(adult, `${adult} of ${child}`).not.toBe(child);
    }
  });

  it('gives demo tickets and refunds seeded past their first state a handler and a history (issue 26)', async () => {
    const admin = await t.loginAs('admin');
    const read = async (url: string, payload: object = {}) => (await t.injectAs(admin, { method: 'POST', url, payload: { pageSize: 100, ...payload } })).json().data.items as Record<string, unknown>[];
    const done = await read('/api/MaintenanceTicket/Search', { state: [4] });
    expect(done.length).toBeGreaterThan(0);
    const historyOf = async (family: string, id: unknown) => (await t.injectAs(admin, { method: 'GET', url: `/api/${family}/History?id=${String(id)}` })).json().data as { verb: string }[];
    for (const ticket of done) {
      expect(ticket.assigneeIdLabel).toMatch(/运维/);
      expect((await historyOf('MaintenanceTicket', ticket.id)).map((entry) => entry.verb)).toEqual(['Assign', 'Start', 'Complete']);
    }
    const closedOrRejected = (await read('/api/Refund/Search')).filter((refund) => refund.state === 5 || refund.state === 6);
    expect(closedOrRejected).toHaveLength(2);
    for (const refund of closedOrRejected) expect((await historyOf('Refund', refund.id)).map((entry) => entry.verb)).toEqual([refund.state === 5 ? 'Reject' : 'Close']);
  });

  it('stores the demo pictures and songs in the upload store, and counts each demo questionnaire as its stored answers', async () => {
    const pages = await t.db.select({ image: appStartupPages.image }).from(appStartupPages);
    const songs = await t.db.select({ file: appMusics.file, durationSeconds: appMusics.durationSeconds }).from(appMusics);
    // Every gate record carries a snapshot, as a face terminal sends one with each event.
    const snapshots = await t.db.selectDistinct({ snapshot: recognitionRecords.snapshot }).from(recognitionRecords);
    expect(pages.length).toBeGreaterThan(0);
    expect(songs.length).toBeGreaterThan(0);
    expect(snapshots.length).toBeGreaterThan(1);
    for (const url of [...pages.map((page) => page.image), ...songs.map((song) => song.file), ...snapshots.map((row) => row.snapshot)]) {
      expect(url).toMatch(/^\/uploads\//);
      const key = String(url).replace(/^\/uploads\//, '');
      expect(await t.app.uploads.stat(key), key).toBeDefined();
      expect(await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.key, key))).toHaveLength(1);
    }
    // The songs' lengths as the music page would read them from the files.
    for (const song of songs) {
      const key = String(song.file).replace(/^\/uploads\//, '');
      const chunks: Buffer[] = [];
      for await (const chunk of t.app.uploads.read(key)) chunks.push(chunk as Buffer);
      const metadata = await parseBuffer(Buffer.concat(chunks), { mimeType: 'audio/wav' });
      expect(Math.round(metadata.format.duration!)).toBe(song.durationSeconds);
    }
    const demo = await t.db.select({ id: questionnaires.id, answerCount: questionnaires.answerCount }).from(questionnaires);
    expect(demo.length).toBeGreaterThan(0);
    for (const questionnaire of demo) {
      const [stored] = await t.db.select({ total: count() }).from(questionnaireAnswers).where(eq(questionnaireAnswers.questionnaireId, questionnaire.id));
      expect(questionnaire.answerCount).toBe(stored!.total);
    }
  });

  it('seeds app versions, terminal packages with the true SHA-256 of their stored files, and upgrade plans whose counts add up', async () => {
    const admin = await t.loginAs('admin');
    const search = async <T>(family: string, view: string, filters: Record<string, unknown> = {}) => {
      const response = await t.injectAs(admin, { method: 'POST', url: `/api/${family}/Search?view=${view}`, payload: { pageIndex: 1, pageSize: 100, ...filters } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.items as T[];
    };

    // appVersionManage: each app on each OS has releases, and an old client must take the forced one.
    const apps = await search<{ osType: number; appType: number; isForceUpgrade: boolean }>('AppVersion', 'appVersionManage');
    for (const osType of [1, 2]) {
      for (const appType of [1, 2]) expect(apps.filter((row) => row.osType === osType && row.appType === appType).length, `os ${osType} app ${appType}`).toBeGreaterThanOrEqual(2);
    }
    expect(apps.some((row) => row.isForceUpgrade)).toBe(true);
    const latest = (await t.app.inject({ method: 'GET', url: '/api/AppVersion/Latest?osType=1&appType=1&versionCode=30100' })).json().data;
    expect(latest).toMatchObject({ versionCode: 30201, isForceUpgrade: true, downloadUrl: expect.stringMatching(/^\/uploads\/.+\.apk\?/) });

    // versionManage: packages per terminal type, each hash and size those of the file in the store.
    const versions = await search<{ id: number; terminalType: number }>('TerminalAppVersion', 'versionManage');
    for (const terminalType of [1, 2, 3]) expect(versions.filter((row) => row.terminalType === terminalType).length, `type ${terminalType}`).toBeGreaterThanOrEqual(2);
    for (const { id } of versions) {
      const version = (await t.injectAs(admin, { method: 'GET', url: `/api/TerminalAppVersion/Get?id=${id}&view=versionManage` })).json().data;
      const chunks: Buffer[] = [];
      for await (const chunk of t.app.uploads.read(uploadKeyOf(version.packageUrl))) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      expect(version.sha256, version.versionNumber).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(version.packageSize).toBe(bytes.length);
    }

    // upVersion: a completed, a running and a paused plan; every count is what its device lines say.
    const plans = await search<{ id: number; state: number }>('TerminalAppUpgrade', 'upVersion');
    expect(plans.map((plan) => plan.state).sort()).toEqual([2, 3, 4]);
    const firmware = new Map((await t.db.select({ deviceId: terminals.deviceId, firmwareVersion: terminals.firmwareVersion }).from(terminals)).map((row) => [row.deviceId, row.firmwareVersion]));
    for (const { id } of plans) {
      const plan = (await t.injectAs(admin, { method: 'GET', url: `/api/TerminalAppUpgrade/Get?id=${id}&view=upVersion` })).json().data;
      const lines = plan.targets as { deviceId: number; state: string; handedAt: string | null }[];
      const counted = (test: (line: (typeof lines)[number]) => boolean) => lines.filter(test).length;
      expect(plan, plan.name).toMatchObject({
        targetCount: lines.length,
        updatedCount: counted((line) => line.state === 'UPDATED'),
        failedCount: counted((line) => line.state === 'FAILED'),
        waitingCount: counted((line) => line.state === 'WAITING' && line.handedAt === null),
        inProgressCount: counted((line) => !['UPDATED', 'FAILED', 'CANCELLED'].includes(line.state) && line.handedAt !== null),
      });
      expect(lines.length).toBeGreaterThan(0);
      if (plan.state === 4) expect(plan.updatedCount + plan.failedCount, plan.name).toBe(plan.targetCount);
      else expect(plan.updatedCount + plan.failedCount, plan.name).toBeLessThan(plan.targetCount);
      if (plan.state === 2) expect(new Set(lines.map((line) => line.state)).size, plan.name).toBeGreaterThanOrEqual(4);
      expect(plan.releasedAt <= (plan.completedAt ?? plan.releasedAt)).toBe(true);
      const [version] = (await t.db.select({ versionNumber: terminalAppVersions.versionNumber }).from(terminalAppVersions).where(eq(terminalAppVersions.id, plan.versionId)));
      // The devices that updated run the plan's version now (the newest plan's, for a gate in two).
      if (plan.state !== 4) for (const line of lines.filter((target) => target.state === 'UPDATED')) expect(firmware.get(line.deviceId)).toBe(version!.versionNumber);
    }
  });

  it("plays a few demo parents through the app channel: orders paid and their service extended, devices registered, a refund application", async () => {
    const found = (await t.db.execute(sql`
      select (select count(*)::int from push_tokens where token like 'demo-device-%') as devices,
        (select count(*)::int from payment_records p join student_services s on s.student_id = p.student_id
          where p.out_trade_no like 'P%' and p.trade_no like 'DEMO-P%' and s.service_to >= p.service_to) as paid,
        (select count(*)::int from operation_log where family = 'Refund' and action = 'add' and user_id is null) as refunds`)) as unknown as { rows: { devices: number; paid: number; refunds: number }[] };
    // Refund applications: one for a service bought twice (demo-parent-app), two for a mall order's line (demo-mall).
    expect(found.rows[0]).toEqual({ devices: 3, paid: 3, refunds: 3 });
  });

  it("pays once a year per demo child: every child's service ends within a year or so of the seed's day", async () => {
    const found = (await t.db.execute(sql`
      select (select count(*)::int from student_services) as services,
        (select max(service_to)::text from student_services) as latest,
        (select count(*)::int from (select student_id from payment_records where trade_no like 'DEMO%' and student_id is not null
          and trade_no not like 'DEMO-P%' group by student_id having count(*) > 1) twice) as "paidTwice",
        (current_date + 400)::text as "limit"`)) as unknown as { rows: { services: number; latest: string; paidTwice: number; limit: string }[] };
    const row = found.rows[0]!;
    expect(row.services).toBeGreaterThan(0);
    expect(row.paidTwice).toBe(0);
    expect(row.latest <= row.limit, `latest service end ${row.latest}`).toBe(true);
  });

  it('seeds a developer with its generated app id, reading two demo schools, and no secret yet', async () => {
    const admin = await t.loginAs('admin');
    const found = (await t.injectAs(admin, { method: 'POST', url: '/api/Developer/Search?view=developManage', payload: {} })).json().data;
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ enabled: true, appId: expect.stringMatching(/\S{8,}/), secretIssuedAt: null });
    expect(found.items[0].schoolIds).toHaveLength(2);
  });

  it('keeps type grants that were edited when the defaults run again', async () => {
    database = await emptyDatabase();
    await seedDefaults(database.db);
    await database.db.delete(grants).where(eq(grants.frameId, 301));
    await seedDefaults(database.db);
    expect(await database.db.select().from(grants).where(eq(grants.frameId, 301))).toEqual([]);
  });

  it('creates the first admin from ADMIN_INITIAL_PASSWORD, bound to change it', async () => {
    database = await emptyDatabase();
    await expect(ensureInitialAdmin(database.db, { password: undefined, phone: undefined })).rejects.toThrow(MissingInitialPasswordError);
    expect(await ensureInitialAdmin(database.db, { password: 'Start@2026', phone: '13700000000' })).toBe(true);
    const [admin] = await database.db.select().from(users).where(eq(users.loginName, 'admin'));
    expect(admin).toMatchObject({ type: 'company', mustChangePassword: true, phoneNum: '13700000000' });
    expect(await verifyPassword(md5Hex('Start@2026'), admin!.passwordHash)).toBe(true);
    expect(await ensureInitialAdmin(database.db, { password: undefined, phone: undefined })).toBe(false);
  });
});
