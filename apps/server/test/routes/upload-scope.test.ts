/**
 * A row may only reference files uploaded within the writer's scope (issue 8: putting another agent's
 * upload key on one's own row yielded a freshly signed address of that agent's file). The uploader's
 * scope is recorded per file; company staff may reference any file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFiles } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf } from '../resources/fixtures.js';

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const multipartPng = () => multipartFiles([{ filename: 'face.png', content: PNG, type: 'image/png' }]);


let t: TestApp;
let workDir: string;
let admin: string;
let agent1: string;
let child1: string;
let agent2: string;
let agent1School: number;
let agent2School: number;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-upload-scope-'));
  t = await createTestApp({ env: { UPLOAD_DIR: path.join(workDir, 'uploads') } });
  [admin, agent1, child1, agent2] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('child1'), t.loginAs('agent2')]);
  [agent1School, agent2School] = await Promise.all([schoolIdsOf(t, 'agent1').then((ids) => ids[0]!), schoolIdsOf(t, 'agent2').then((ids) => ids[0]!)]);
});
afterAll(async () => {
  await t.close();
  await fs.rm(workDir, { recursive: true, force: true });
});

/** Uploads a PNG as the caller and answers its signed address. */
async function uploadAs(token: string): Promise<string> {
  const response = await t.injectAs(token, { method: 'POST', url: '/api/File/UploadImgs', ...multipartPng() });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0].url;
}

const addStudent = (token: string, schoolId: number, faceImage: string) =>
  t.injectAs(token, { method: 'POST', url: '/api/Student/Add', payload: { schoolId, name: `照片${randomBytes(3).toString('hex')}`, faceImage } });

describe('file fields reference files of the writer’s scope', () => {
  it("refuses another agent's upload on one's own row, as a field error, and signs nothing", async () => {
    const foreign = await uploadAs(agent2);
    const response = await addStudent(agent1, agent1School, foreign);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().data.errors.map((error: { path: string }) => error.path)).toEqual(['faceImage']);
    // The same answer as a key nobody uploaded: which files exist cannot be probed.
    const unknown = await addStudent(agent1, agent1School, '/uploads/2026/01/AAAAAAAAAAAAAAAAAAAAAA.png');
    expect(unknown.json()).toEqual(response.json());
  });

  it('accepts a file uploaded in the same scope, by the agent or its child account', async () => {
    expect((await addStudent(agent1, agent1School, await uploadAs(agent1))).statusCode).toBe(200);
    expect((await addStudent(agent1, agent1School, await uploadAs(child1))).statusCode).toBe(200);
  });

  it('lets company staff reference any file, and an agent keep a file already on its row', async () => {
    const foreign = await uploadAs(agent2);
    const added = await addStudent(admin, agent1School, foreign);
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id;
    const row = (await t.injectAs(agent1, { method: 'GET', url: `/api/Student/Get?id=${id}` })).json().data;
    // The form sends back what it read: an unchanged file is no new reference.
    const kept = await t.injectAs(agent1, { method: 'POST', url: '/api/Student/Update', payload: { id, version: row.version, name: '改名', faceImage: row.faceImage } });
    expect(kept.statusCode, kept.body).toBe(200);
  });

  it('accepts plain http(s) addresses as before', async () => {
    expect((await addStudent(agent2, agent2School, 'https://example.com/face.png')).statusCode).toBe(200);
  });
});
