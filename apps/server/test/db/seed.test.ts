import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { seedDefaults } from '../../src/db/seed/defaults.js';
import { seedDemo } from '../../src/db/seed/demo.js';
import { MissingInitialPasswordError, ensureInitialAdmin } from '../../src/db/seed/initial-admin.js';
import { appMusics, appStartupPages, grants, questionnaireAnswers, questionnaires, schools, uploadedFiles, users } from '../../src/db/schema/index.js';
import { parseBuffer } from 'music-metadata';
import { md5Hex, verifyPassword } from '../../src/platform/passwords.js';
import { createMigratedDatabase, createTestApp, type TestApp } from '../helpers/test-app.js';

// A copy of the run's migrated template: migrating afresh here came near the test timeout on a busy machine.
const emptyDatabase = createMigratedDatabase;

describe('seeding', () => {
  let database: DatabaseHandle | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    await database?.close();
    await t?.close();
    database = undefined;
    t = undefined;
  });

  it('seeds the demo data once: a second run adds nothing', async () => {
    t = await createTestApp();
    const totals = async () => ({
      users: (await t!.db.select({ total: count() }).from(users))[0]!.total,
      schools: (await t!.db.select({ total: count() }).from(schools))[0]!.total,
    });
    const before = await totals();
    expect(before).toEqual({ users: 7, schools: 8 });
    expect(await seedDemo(t.db)).toBe(false);
    await seedDefaults(t.db);
    expect(await totals()).toEqual(before);
  });

  it('stores the demo pictures and songs in the upload store, and counts each demo questionnaire as its stored answers', async () => {
    t = await createTestApp();
    const pages = await t.db.select({ image: appStartupPages.image }).from(appStartupPages);
    const songs = await t.db.select({ file: appMusics.file, durationSeconds: appMusics.durationSeconds }).from(appMusics);
    expect(pages.length).toBeGreaterThan(0);
    expect(songs.length).toBeGreaterThan(0);
    for (const url of [...pages.map((page) => page.image), ...songs.map((song) => song.file)]) {
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
