import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client.js';
import { DataDirLockedError, lockDataDir } from '../../src/db/data-dir-lock.js';
import { pgliteTemplateDump } from '../helpers/pglite-template.js';

// The lock guards the embedded database only; it is the same code whichever project runs it.
describe.skipIf(process.env.TEST_DB === 'postgres')('createDatabase on a DATA_DIR', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-lock-'));
    dirs.push(dir);
    return dir;
  };
  // A new directory starts from the run's migrated template: an initdb of its own came near the test
  // timeout on a busy machine, and the lock is taken before the database opens either way.
  const fromTemplate = async () => ({ loadDataDir: await pgliteTemplateDump('pgliteMigratedTemplate') });
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second open of the same directory with a clear message, and releases it on close', async () => {
    const dir = tempDir();
    const first = await createDatabase({ DATA_DIR: dir }, await fromTemplate());
    await expect(createDatabase({ DATA_DIR: dir })).rejects.toThrow(DataDirLockedError);
    await expect(createDatabase({ DATA_DIR: dir })).rejects.toThrow(/another Campus Ops Console process is using DATA_DIR/);
    await first.close();
    expect(fs.existsSync(path.join(dir, '.lock'))).toBe(false);
    // Taken again by the lock alone: a second on-disk open of PGlite cost as much as the first, which
    // took this test past the suite's timeout on a busy machine, and proves nothing more of the lock.
    lockDataDir(dir).release();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = tempDir();
    const finished = spawnSync(process.execPath, ['-e', '']);
    fs.writeFileSync(path.join(dir, '.lock'), `${finished.pid}\n`);
    const database = await createDatabase({ DATA_DIR: dir }, await fromTemplate());
    expect(fs.readFileSync(path.join(dir, '.lock'), 'utf8').trim()).toBe(String(process.pid));
    await database.close();
  });
});
