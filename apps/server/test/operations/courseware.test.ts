import { COURSEWARE_DOCUMENT, COURSEWARE_VIDEO } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMp4, demoPdf } from '../../src/seeds/demo-courseware.js';
import { demoPng } from '../../src/seeds/demo-media.js';
import { multipartFiles } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf, unique } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent2: string;
let directoryId: number;
let school1: number;
let school2: number;

const VIEW = 'view=coursewareManage';

beforeAll(async () => {
  t = await createTestApp();
  await Promise.all([grantEverything(t, 'agent1'), grantEverything(t, 'agent2')]);
  [admin, agent1, agent2] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('agent2')]);
  school1 = (await schoolIdsOf(t, 'agent1'))[0]!;
  school2 = (await schoolIdsOf(t, 'agent2'))[0]!;
  const directory = await t.injectAs(admin, { method: 'POST', url: '/api/EducationDirectory/Add?view=directoryManage', payload: { name: `课件${unique()}` } });
  directoryId = directory.json().data.id;
});
afterAll(() => t.close());

/** Uploads one file through an upload call and answers its signed address (or the failed answer). */
async function upload(token: string, call: 'UploadVideos' | 'UploadImgs' | 'UploadDocuments', bytes: Buffer, filename: string) {
  return t.injectAs(token, { method: 'POST', url: `/api/File/${call}`, ...multipartFiles([{ filename, content: bytes }]) });
}
async function uploaded(token: string, call: 'UploadVideos' | 'UploadImgs' | 'UploadDocuments', bytes: Buffer, filename: string): Promise<string> {
  const response = await upload(token, call, bytes, filename);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0].url;
}

const add = (token: string, payload: Record<string, unknown>) =>
  t.injectAs(token, { method: 'POST', url: `/api/EducationCourseware/Add?${VIEW}`, payload: { title: `课件${unique()}`, directoryId, ...payload } });
const get = (token: string, id: number) => t.injectAs(token, { method: 'GET', url: `/api/EducationCourseware/Get?id=${id}&${VIEW}` });
const errorPaths = (response: { json: () => { data: { errors: { path: string }[] } } }) => response.json().data.errors.map((error) => error.path);

describe('courseware videos and documents', () => {
  it('reads a video’s duration from its movie header, wherever the header lies, and keeps the grabbed poster', async () => {
    for (const [seconds, moovLast] of [[95, false], [3_725.4, true]] as const) {
      const videoFile = await uploaded(agent1, 'UploadVideos', demoMp4(seconds, { moovLast, mediaBytes: 20_000 }), 'lesson.mp4');
      const posterImage = await uploaded(agent1, 'UploadImgs', demoPng(64, 36, [0, 0, 0], [255, 255, 255], 1), 'frame.png');
      const response = await add(agent1, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile, posterImage });
      expect(response.statusCode, response.body).toBe(200);
      const row = (await get(agent1, response.json().data.id)).json().data;
      // Read from the file: the form has no such input, and the Add refuses it as an unknown field.
      expect(row.durationSeconds).toBe(Math.round(seconds));
      expect(row.posterImage).toMatch(/^\/uploads\/.+\.png\?e=/);
    }
  });

  it('refuses a video without a movie header, a poster that is no uploaded image and files of the other kind, on their fields', async () => {
    const noHeader = await uploaded(admin, 'UploadVideos', demoMp4(10).subarray(0, 32), 'cut.mp4');
    expect(errorPaths(await add(admin, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile: noHeader }))).toEqual(['videoFile']);
    const videoFile = await uploaded(admin, 'UploadVideos', demoMp4(10), 'lesson.mp4');
    expect(errorPaths(await add(admin, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile, posterImage: videoFile }))).toEqual(['posterImage']);
    expect(errorPaths(await add(admin, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile, posterImage: 'https://example.com/frame.jpg' }))).toEqual(['posterImage']);
    const documentFile = await uploaded(admin, 'UploadDocuments', await demoPdf('Lesson', ['one']), 'lesson.pdf');
    expect(errorPaths(await add(admin, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile, documentFile }))).toEqual(['documentFile']);
    expect(errorPaths(await add(admin, { schoolId: school1, kind: COURSEWARE_DOCUMENT, documentFile: videoFile }))).toEqual(['documentFile']);
    expect(errorPaths(await add(admin, { schoolId: school1, kind: COURSEWARE_DOCUMENT, documentFile, videoFile }))).toEqual(['videoFile']);
    // A picture named like a document is refused by its bytes at the upload.
    expect((await upload(admin, 'UploadDocuments', demoPng(8, 8, [0, 0, 0], [9, 9, 9], 1), 'notes.pdf')).statusCode).toBe(400);
  });

  it('stores a document without length or poster, and turning a video into a document drops them', async () => {
    const documentFile = await uploaded(admin, 'UploadDocuments', await demoPdf('Lesson', ['one']), 'lesson.pdf');
    const videoFile = await uploaded(admin, 'UploadVideos', demoMp4(42), 'lesson.mp4');
    const added = await add(admin, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile });
    expect(added.statusCode, added.body).toBe(200);
    const { id } = added.json().data;
    const { durationSeconds, version } = (await get(admin, id)).json().data;
    expect(durationSeconds).toBe(42);
    const updated = await t.injectAs(admin, { method: 'POST', url: `/api/EducationCourseware/Update?${VIEW}`, payload: { id, version, kind: COURSEWARE_DOCUMENT, documentFile } });
    expect(updated.statusCode, updated.body).toBe(200);
    const row = (await get(admin, id)).json().data;
    expect([row.videoFile, row.posterImage, row.durationSeconds]).toEqual([null, null, null]);
    expect(row.documentFile).toMatch(/^\/uploads\/.+\.pdf\?e=/);
  });

  it('shows an agent only its schools’ courseware', async () => {
    const videoFile = await uploaded(admin, 'UploadVideos', demoMp4(20), 'lesson.mp4');
    const own = (await add(admin, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile })).json().data.id;
    const other = (await add(admin, { schoolId: school2, kind: COURSEWARE_VIDEO, videoFile })).json().data.id;
    const search = async (token: string) =>
      (await t.injectAs(token, { method: 'POST', url: `/api/EducationCourseware/Search?${VIEW}`, payload: { inDirectory: directoryId, pageIndex: 1, pageSize: 100 } })).json().data.items.map((row: { id: number }) => row.id);
    const [seenBy1, seenBy2, seenByAdmin] = await Promise.all([search(agent1), search(agent2), search(admin)]);
    expect(seenBy1).toContain(own);
    expect(seenBy1).not.toContain(other);
    expect(seenBy2).toContain(other);
    expect(seenBy2).not.toContain(own);
    expect(seenByAdmin).toEqual(expect.arrayContaining([own, other]));
    expect((await get(agent1, other)).statusCode).toBe(404);
    // Nor may an agent file courseware under another agent's school.
    expect((await add(agent1, { schoolId: school2, kind: COURSEWARE_VIDEO, videoFile: await uploaded(agent1, 'UploadVideos', demoMp4(5), 'a.mp4') })).statusCode).not.toBe(200);
  });

  it('filters by a directory with everything filed below it', async () => {
    const addDirectory = async (parentId?: number) =>
      (await t.injectAs(admin, { method: 'POST', url: '/api/EducationDirectory/Add?view=directoryManage', payload: { name: `目录${unique()}`, ...(parentId ? { parentId } : {}) } })).json().data.id as number;
    const top = await addDirectory();
    const middle = await addDirectory(top);
    const leaf = await addDirectory(middle);
    const elsewhere = await addDirectory();
    const videoFile = await uploaded(admin, 'UploadVideos', demoMp4(8), 'lesson.mp4');
    const inLeaf = (await add(admin, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile, directoryId: leaf })).json().data.id;
    const inTop = (await add(admin, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile, directoryId: top })).json().data.id;
    const listed = async (inDirectory: number) =>
      (await t.injectAs(admin, { method: 'POST', url: `/api/EducationCourseware/Search?${VIEW}`, payload: { inDirectory, pageIndex: 1, pageSize: 100 } })).json().data.items.map((row: { id: number }) => row.id).sort();
    expect(await listed(top)).toEqual([inLeaf, inTop].sort());
    expect(await listed(middle)).toEqual([inLeaf]);
    expect(await listed(leaf)).toEqual([inLeaf]);
    expect(await listed(elsewhere)).toEqual([]);
  });

  it('holds the demo seed’s courseware, made through the same Add, with lengths read from its files', async () => {
    const found = await t.injectAs(admin, { method: 'POST', url: `/api/EducationCourseware/Search?${VIEW}`, payload: { title: '火灾逃生演练', pageIndex: 1, pageSize: 10 } });
    const rows = found.json().data.items as { durationSeconds: number; posterImage: string; directoryIdLabel: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect([row.durationSeconds, row.directoryIdLabel, row.posterImage.startsWith('/uploads/')]).toEqual([184, '火灾逃生', true]);
  });

  it('plays a courseware video by byte ranges through its signed address', async () => {
    const bytes = demoMp4(30, { mediaBytes: 50_000 });
    const videoFile = await uploaded(agent1, 'UploadVideos', bytes, 'lesson.mp4');
    const id = (await add(agent1, { schoolId: school1, kind: COURSEWARE_VIDEO, videoFile })).json().data.id;
    const address = (await get(agent1, id)).json().data.videoFile as string;
    for (const [range, start, end] of [['bytes=0-1023', 0, 1023], ['bytes=30000-', 30_000, bytes.length - 1], ['bytes=-100', bytes.length - 100, bytes.length - 1]] as const) {
      const response = await t.app.inject({ method: 'GET', url: address, headers: { range } });
      expect(response.statusCode).toBe(206);
      expect(response.headers['content-type']).toBe('video/mp4');
      expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(response.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
    }
    expect((await t.app.inject({ method: 'GET', url: address, headers: { range: `bytes=${bytes.length}-` } })).statusCode).toBe(416);
    // Without its signature the same file is not served at all.
    expect((await t.app.inject({ method: 'GET', url: address.split('?')[0]!, headers: { range: 'bytes=0-10' } })).statusCode).toBe(404);
  });
});
