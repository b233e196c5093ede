import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadedFiles } from '../../src/db/schema/index.js';
import { multipartFiles, type UploadPart } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** An empty zip archive: only its end-of-central-directory record. */
const EMPTY_ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
/** A zip's local file header followed by some bytes: what an APK starts with. */
const APK = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(2000)]);
/** The test app's package limit: 0.01 MB = 10,485 bytes. */
const PACKAGE_MAX_MB = '0.01';


const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('POST /api/File/UploadPackages', () => {
  let t: TestApp;
  let token: string;
  let workDir: string;
  let uploadDir: string;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-package-test-'));
    uploadDir = path.join(workDir, 'uploads');
    t = await createTestApp({ env: { UPLOAD_DIR: uploadDir, UPLOAD_PACKAGE_MAX_MB: PACKAGE_MAX_MB } });
    token = await t.loginAs('admin');
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  const upload = (parts: UploadPart[], withToken = true) => {
    const request = { method: 'POST' as const, url: '/api/File/UploadPackages', ...multipartFiles(parts) };
    return withToken ? t.injectAs(token, request) : t.app.inject(request);
  };
  const storedFiles = async () => (await fs.readdir(uploadDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;

  it('stores an APK and answers its key, signed address, size and SHA-256, recorded with the uploader’s scope', async () => {
    const response = await upload([{ filename: 'parent-3.0.1.apk', content: APK }]);
    expect(response.statusCode).toBe(200);
    const [stored] = response.json().data;
    expect(stored).toEqual({
      key: expect.stringMatching(/^\d{4}\/\d{2}\/[A-Za-z0-9_-]{22}\.apk$/),
      url: expect.stringMatching(/^\/uploads\/\d{4}\/\d{2}\/[A-Za-z0-9_-]{22}\.apk\?e=\d+&s=/),
      name: 'parent-3.0.1.apk',
      size: APK.length,
      sha256: sha256(APK),
      contentType: 'application/vnd.android.package-archive',
    });
    const [record] = await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.key, stored.key));
    expect(record).toMatchObject({ size: APK.length, sha256: sha256(APK), scopeKey: 'company' });

    const served = await t.app.inject({ method: 'GET', url: stored.url });
    expect(served.rawPayload.equals(APK)).toBe(true);
  });

  it('takes a zip archive and firmware of any bytes', async () => {
    const firmware = randomBytes(3000);
    const zip = await upload([{ filename: 'gate.zip', content: EMPTY_ZIP }]);
    const bin = await upload([{ filename: 'GATE-G3_v2.1.0.BIN', content: firmware }]);
    expect(zip.json().data[0]).toMatchObject({ key: expect.stringMatching(/\.zip$/), sha256: sha256(EMPTY_ZIP) });
    expect(bin.json().data[0]).toMatchObject({ key: expect.stringMatching(/\.bin$/), size: firmware.length, sha256: sha256(firmware), contentType: 'application/octet-stream' });
  });

  it('refuses a .zip or .apk that is no zip archive, and another kind of file, keeping nothing', async () => {
    const before = await storedFiles();
    for (const part of [
      { filename: 'fake.apk', content: Buffer.from('not a zip at all') },
      { filename: 'fake.zip', content: Buffer.from('%PDF-1.7') },
      { filename: 'script.sh', content: Buffer.from('#!/bin/sh\n') },
    ]) {
      const response = await upload([part]);
      expect(response.statusCode, part.filename).toBe(400);
      expect(response.json().data.errors, part.filename).toMatchObject([{ path: 'files.0', key: 'upload.wrongType' }]);
    }
    expect(await storedFiles()).toBe(before);
  });

  it('refuses a package over UPLOAD_PACKAGE_MAX_MB by name, keeping nothing', async () => {
    const before = await storedFiles();
    const response = await upload([{ filename: 'huge.bin', content: randomBytes(11_000) }]);
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors).toMatchObject([{ path: 'files.0', key: 'upload.tooLarge', message: expect.stringContaining('huge.bin') }]);
    expect(await storedFiles()).toBe(before);
  });

  it('takes one package per call and needs a session', async () => {
    const two = await upload([
      { filename: 'a.bin', content: randomBytes(10) },
      { filename: 'b.bin', content: randomBytes(10) },
    ]);
    expect(two.statusCode).toBe(400);
    expect((await upload([{ filename: 'a.bin', content: randomBytes(10) }], false)).statusCode).toBe(401);
  });
});
