/**
 * The upload quota per scope (ASVS 12.1.3, issue 8): the files uploaded within one scope (an agent
 * with its child accounts, a sales person, an external user) add up to at most UPLOAD_SCOPE_QUOTA_MB;
 * past it an upload is refused as a whole, by a 400 that says so, and leaves nothing on disk.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFiles } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** A real 1×1 PNG, padded to 400 bytes (the type is judged by its first bytes). */
const PNG = Buffer.concat([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64')]);
const IMAGE = Buffer.concat([PNG, Buffer.alloc(400 - PNG.length)]);
/** 0.001 MB = 1,048 bytes: two images of 400 bytes fit, a third does not. */
const QUOTA_MB = '0.001';

const multipartPngs = (count: number) => multipartFiles(Array.from({ length: count }, (_, index) => ({ filename: `photo-${index}.png`, content: IMAGE, type: 'image/png' })));


describe('the upload quota of a scope (ASVS 12.1.3)', () => {
  let t: TestApp;
  let workDir: string;
  let uploadDir: string;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-quota-test-'));
    uploadDir = path.join(workDir, 'uploads');
    t = await createTestApp({ env: { UPLOAD_DIR: uploadDir, UPLOAD_SCOPE_QUOTA_MB: QUOTA_MB } });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  const upload = async (token: string, count = 1) => t.injectAs(token, { method: 'POST', url: '/api/File/UploadImgs', ...multipartPngs(count) });
  const storedFiles = async () => (await fs.readdir(uploadDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;

  it("refuses the upload that would pass the scope's quota, as a whole, and keeps nothing of it", async () => {
    const agent = await t.loginAs('agent1');
    expect((await upload(agent)).json().code).toBe(200);
    const before = await storedFiles();
    // Two more would take 1,200 bytes: both are refused, not the second alone.
    const refused = await upload(agent, 2);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 400,
      key: 'upload.quotaExceeded',
      message: expect.stringMatching(/^not enough upload space: the files of this account scope may take [\d.]+ MB in all, and [\d.]+ MB is used$/),
      data: { errors: [{ path: 'files', key: 'upload.quotaExceeded' }] },
    });
    expect(await storedFiles()).toBe(before);
    // One more still fits, and then the scope is full before a byte is read.
    expect((await upload(agent)).json().code).toBe(200);
    expect((await upload(agent)).json()).toMatchObject({ code: 400, key: 'upload.quotaExceeded' });
  });

  it("counts an agent's child accounts in the agent's scope, and no other scope", async () => {
    expect((await upload(await t.loginAs('child1'))).json()).toMatchObject({ code: 400, key: 'upload.quotaExceeded' });
    const otherAgent = await t.loginAs('agent2');
    expect((await upload(otherAgent, 2)).json().code).toBe(200);
    expect((await upload(otherAgent)).json()).toMatchObject({ code: 400, key: 'upload.quotaExceeded' });
  });

  it('leaves company staff, the operator, uncounted', async () => {
    const admin = await t.loginAs('admin');
    for (let round = 0; round < 2; round += 1) expect((await upload(admin, 2)).json().code).toBe(200);
  });
});
