import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRange } from '../../src/routes/file.js';
import { multipartFiles, type UploadPart } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
/** The start of an MP4 (an ISO base media `ftyp` box, brand isom) followed by an empty `mdat` box. */
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2'),
  Buffer.from([0, 0, 0, 8]),
  Buffer.from('mdat'),
]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/** The test app's image limit: 0.01 MB = 10,485 bytes. */
const IMAGE_MAX_MB = '0.01';


/** Every file under a folder (staging included), relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('/api/File uploads and /uploads/', () => {
  let t: TestApp;
  let token: string;
  let workDir: string;
  let uploadDir: string;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-upload-test-'));
    uploadDir = path.join(workDir, 'uploads');
    // A file beside the upload folder that no /uploads/ address may ever reach.
    await fs.writeFile(path.join(workDir, 'secret.txt'), 'top secret');
    t = await createTestApp({ env: { UPLOAD_DIR: uploadDir, UPLOAD_IMAGE_MAX_MB: IMAGE_MAX_MB } });
    token = await t.loginAs('agent1');
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  const upload = (url: string, parts: UploadPart[], withToken = true) => {
    const request = { method: 'POST' as const, url, ...multipartFiles(parts) };
    return withToken ? t.injectAs(token, request) : t.app.inject(request);
  };
  const uploadImages = (parts: UploadPart[], withToken = true) => upload('/api/File/UploadImgs', parts, withToken);

  it('creates the upload folder at boot', async () => {
    expect((await fs.stat(uploadDir)).isDirectory()).toBe(true);
  });

  it('stores a real PNG under a random name and serves it back byte for byte as image/png', async () => {
    const response = await uploadImages([{ filename: 'photo.png', content: PNG, type: 'image/png' }]);
    expect(response.statusCode).toBe(200);
    const [stored] = response.json().data;
    expect(stored).toEqual({
      url: expect.stringMatching(/^\/uploads\/\d{4}\/\d{2}\/[A-Za-z0-9_-]{22}\.png\?e=\d+&s=[A-Za-z0-9_-]{43}$/),
      name: 'photo.png',
      size: PNG.length,
      contentType: 'image/png',
    });
    expect(await filesUnder(uploadDir)).toContain(stored.url.slice('/uploads/'.length).split('?')[0]);

    const served = await t.app.inject({ method: 'GET', url: stored.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toMatch(/^private, max-age=\d+, immutable$/);
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('names the type by the bytes, not by the name or the declared type', async () => {
    const response = await uploadImages([{ filename: 'disguised.gif', content: PNG, type: 'image/gif' }]);
    expect(response.json().data[0]).toMatchObject({ url: expect.stringMatching(/\.png\?/), contentType: 'image/png' });
  });

  it('stores several files of one call in order', async () => {
    const response = await uploadImages([
      { filename: 'a.png', content: PNG },
      { filename: 'b.png', content: PNG },
    ]);
    expect(response.json().data.map((file: { name: string }) => file.name)).toEqual(['a.png', 'b.png']);
  });

  it('refuses a text file named .png with a 400 naming it, and keeps nothing', async () => {
    const before = await filesUnder(uploadDir);
    const response = await uploadImages([{ filename: 'notes.png', content: Buffer.from('just some text, not an image'), type: 'image/png' }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, message: expect.stringContaining('"notes.png" is not a JPEG, PNG, GIF or WebP image') });
    expect(response.json().data.errors).toMatchObject([{ path: 'files.0', key: 'upload.wrongType', message: expect.stringContaining('notes.png') }]);
    expect(await filesUnder(uploadDir)).toEqual(before);
  });

  it('refuses SVG, which can carry script, whatever it is called', async () => {
    for (const part of [
      { filename: 'logo.svg', content: SVG, type: 'image/svg+xml' },
      { filename: 'logo.png', content: SVG, type: 'image/png' },
    ]) {
      const response = await uploadImages([part]);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(part.filename);
    }
  });

  it('refuses a file over the limit with a 400 naming it, and leaves nothing on disk', async () => {
    const before = await filesUnder(uploadDir);
    const tooLarge = Buffer.concat([PNG, Buffer.alloc(20_000)]);
    const response = await uploadImages([{ filename: 'huge.png', content: tooLarge, type: 'image/png' }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, message: expect.stringMatching(/"huge\.png" is larger than the 0\.01 MB allowed/) });
    expect(await filesUnder(uploadDir)).toEqual(before);
  });

  it('stores none of the files of a call when one of them is refused', async () => {
    const before = await filesUnder(uploadDir);
    const response = await uploadImages([
      { filename: 'good.png', content: PNG },
      { filename: 'bad.png', content: Buffer.from('nope') },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors[0].path).toBe('files.1');
    expect(await filesUnder(uploadDir)).toEqual(before);
  });

  it('answers 400, not 500, for a call without files or not multipart', async () => {
    const empty = await uploadImages([]);
    expect(empty.statusCode).toBe(400);
    const json = await t.injectAs(token, { method: 'POST', url: '/api/File/UploadImgs', payload: { url: 'x' } });
    expect(json.statusCode).toBe(400);
    const broken = await t.injectAs(token, {
      method: 'POST',
      url: '/api/File/UploadImgs',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\n\x89PNG',
    });
    expect(broken.statusCode).toBe(400);
    expect(await filesUnder(path.join(uploadDir, '.incoming'))).toEqual([]);
  });

  it('answers 401 without a token and stores nothing', async () => {
    const before = await filesUnder(uploadDir);
    const response = await uploadImages([{ filename: 'photo.png', content: PNG }], false);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('10010');
    expect(await filesUnder(uploadDir)).toEqual(before);
  });

  it('takes MP4 videos on UploadVideos and refuses images there', async () => {
    const video = await upload('/api/File/UploadVideos', [{ filename: 'clip.mp4', content: MP4, type: 'video/mp4' }]);
    expect(video.statusCode).toBe(200);
    const [stored] = video.json().data;
    expect(stored).toMatchObject({ url: expect.stringMatching(/\.mp4\?/), contentType: 'video/mp4' });
    expect((await t.app.inject({ method: 'GET', url: stored.url })).headers['content-type']).toBe('video/mp4');

    const image = await upload('/api/File/UploadVideos', [{ filename: 'photo.png', content: PNG }]);
    expect(image.statusCode).toBe(400);
    expect(image.json().message).toContain('"photo.png" is not an MP4, WebM or MOV (QuickTime) video');
  });

  it('serves one byte range of a file, so videos can seek', async () => {
    const [stored] = (await uploadImages([{ filename: 'photo.png', content: PNG }])).json().data;
    const part = await t.app.inject({ method: 'GET', url: stored.url, headers: { range: 'bytes=1-3' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1-3/${PNG.length}`);
    expect(part.rawPayload.toString('latin1')).toBe('PNG');
    const beyond = await t.app.inject({ method: 'GET', url: stored.url, headers: { range: `bytes=${PNG.length}-` } });
    expect(beyond.statusCode).toBe(416);
  });

  it('opens a file only by an address this server signed, until it expires', async () => {
    const [stored] = (await uploadImages([{ filename: 'photo.png', content: PNG }])).json().data;
    const [path, query] = stored.url.split('?');
    const status = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;
    expect(await status(stored.url)).toBe(200);
    expect(await status(path)).toBe(404);
    const forged = `${path}?${query.replace(/s=./, (m: string) => (m.endsWith('A') ? 's=B' : 's=A'))}`;
    expect(await status(forged)).toBe(404);
    const otherFile = (await uploadImages([{ filename: 'other.png', content: PNG }])).json().data[0].url.split('?')[0];
    expect(await status(`${otherFile}?${query}`)).toBe(404);
    t.clock.advance(13 * 3_600_000);
    expect(await status(stored.url)).toBe(404);
  });

  it('answers 404 for a file that does not exist', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/uploads/2026/01/AAAAAAAAAAAAAAAAAAAAAA.png' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe(404);
  });

  it('never serves anything outside the upload folder', async () => {
    for (const url of [
      '/uploads/../..',
      '/uploads/../secret.txt',
      '/uploads/..%2fsecret.txt',
      '/uploads/%2e%2e/secret.txt',
      '/uploads/%2e%2e%2fsecret.txt',
      '/uploads/2026/01/../../../secret.txt',
      '/uploads/.incoming/x',
      '/uploads//etc/passwd',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      // '/uploads/../..' is '/' once normalised: the console's own page when the web app is built.
      const isConsolePage = response.statusCode === 200 && String(response.headers['content-type']).startsWith('text/html');
      expect(isConsolePage || [400, 404].includes(response.statusCode), `${url}: ${response.statusCode}`).toBe(true);
      expect(response.body, url).not.toContain('top secret');
    }
  });
});

describe('parseRange', () => {
  it('reads one range, a suffix and an open end; ignores several ranges', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
  });
});
