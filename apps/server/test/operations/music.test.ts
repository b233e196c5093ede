import { MUSIC_MAX_SECONDS } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFiles } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { silentWav, storedUpload, unique } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
});
afterAll(() => t.close());

const add = (file: string) =>
  t.injectAs(admin, { method: 'POST', url: '/api/AppMusic/Add?view=appMusicManage', payload: { name: `儿歌${unique()}`, style: 1, usedBy: 2, file } });

describe('POST /api/AppMusic/Add', () => {
  it('reads the duration from the uploaded file itself', async () => {
    const response = await add(await storedUpload(t, silentWav(3), 'wav'));
    expect(response.statusCode, response.body).toBe(200);
    const row = (await t.injectAs(admin, { method: 'GET', url: `/api/AppMusic/Get?id=${response.json().data.id}&view=appMusicManage` })).json().data;
    expect(row.durationSeconds).toBe(3);
  });

  it('refuses an outside address and a file whose audio cannot be read, on the file field', async () => {
    for (const file of ['https://example.com/song.mp3', await storedUpload(t, Buffer.from('not audio at all, just text'), 'mp3')]) {
      const response = await add(file);
      expect(response.statusCode).toBe(400);
      expect(response.json().data.errors.map((e: { path: string }) => e.path)).toEqual(['file']);
    }
  });

  // The file field's declared `length`: each refusal answers the message the declaration names.
  it('answers the declared messages: no audio upload, an unreadable length, a song over 15 minutes', async () => {
    const messagesOf = async (file: string) => {
      const response = await add(file);
      expect(response.statusCode).toBe(400);
      return response.json().data.errors.map((e: { path: string; message: string }) => `${e.path}: ${e.message}`);
    };
    expect(await messagesOf(await storedUpload(t, silentWav(1), 'mp4'))).toEqual(['file: upload the audio file']);
    expect(await messagesOf(await storedUpload(t, Buffer.from('not audio at all, just text'), 'mp3'))).toEqual(['file: the audio length cannot be read: upload a complete audio file']);
    expect(await messagesOf(await storedUpload(t, silentWav(MUSIC_MAX_SECONDS + 1), 'wav'))).toEqual(['file: the audio may be at most 15 minutes long']);
  });

  it('reads the length again when an Update gives a file, and keeps it when the Update leaves the file out', async () => {
    const id = (await add(await storedUpload(t, silentWav(2), 'wav'))).json().data.id as number;
    const get = async () => (await t.injectAs(admin, { method: 'GET', url: `/api/AppMusic/Get?id=${id}&view=appMusicManage` })).json().data;
    const renamed = await t.injectAs(admin, { method: 'POST', url: '/api/AppMusic/Update?view=appMusicManage', payload: { id, version: (await get()).version, name: `改名${unique()}` } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await get()).durationSeconds).toBe(2);
    const file = await storedUpload(t, silentWav(4), 'wav');
    const replaced = await t.injectAs(admin, { method: 'POST', url: '/api/AppMusic/Update?view=appMusicManage', payload: { id, version: (await get()).version, file } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((await get()).durationSeconds).toBe(4);
  });

  it('answers a real audio upload through UploadAudios and refuses a picture sent as audio', async () => {
    const form = (bytes: Buffer, name: string) =>
      t.injectAs(admin, { method: 'POST', url: '/api/File/UploadAudios', ...multipartFiles([{ filename: name, content: bytes }]) });
    const stored = await form(silentWav(1), 'song.wav');
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json().data[0].url).toMatch(/^\/uploads\/.+\.wav\?e=/);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    expect((await form(png, 'song.mp3')).statusCode).toBe(400);
  });
});
