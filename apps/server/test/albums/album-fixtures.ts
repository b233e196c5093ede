/** Albums' test rows: a spec, a template, a class of children with a task, photos uploaded as a teacher would. */
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { ALBUM_BOOK_DONE } from '@campus/contract';
import { albumBooks, albumPriceConfigs, albumSpecs, albumTasks, albumTemplates, parentStudents, parents, schoolClasses, students } from '../../src/db/schema/index.js';
import { setParentPassword, signInParent } from '../app-channel/support.js';
import { photoSlotCount, templatePages } from '../../src/albums/slots.js';
import { layBook } from '../../src/albums/layout.js';
import { samplePhoto } from '../../src/albums/sample-photos.js';
import type { TestApp } from '../helpers/test-app.js';
import { multipartFiles } from '../helpers/multipart.js';
import { storedUpload, unique } from '../resources/fixtures.js';

/** Calls a console API and answers its data, failing the test on any code but 200. */
export async function call<T = Record<string, unknown>>(t: TestApp, token: string, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<T> {
  const response = await t.injectAs(token, { method, url, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const body = response.json() as { code: number; data: T; message: string };
  expect(body.code, `${url}: ${response.body}`).toBe(200);
  return body.data;
}

/** A spec of `pageCount` pages (A4 landscape-ish 285 × 210 mm, 3 mm bleed), enabled. */
export async function albumSpec(t: TestApp, admin: string, pageCount = 8): Promise<number> {
  const { id } = await call<{ id: number }>(t, admin, 'POST', '/api/AlbumSpec/Add', { name: `成长册${unique()}`, trimWidthMm: 285, trimHeightMm: 210, bleedMm: 3, pageCount, binding: 3, paper: 2, enabled: true });
  return id;
}

/** A template over the spec with two photos a page and captions. */
export async function albumTemplate(t: TestApp, admin: string, specId: number, layout = 2): Promise<number> {
  const { id } = await call<{ id: number }>(t, admin, 'POST', '/api/AlbumTemplate/Add', { name: `模板${unique()}`, specId, coverTitle: '我的成长记录', layout, captions: true, enabled: true });
  return id;
}

/** A class of the school with `size` enrolled children. */
export async function classWithChildren(t: TestApp, schoolId: number, size: number): Promise<{ classId: number; studentIds: number[] }> {
  const [created] = await t.db.insert(schoolClasses).values({ schoolId, grade: 1, className: `相册班${unique()}` }).returning({ id: schoolClasses.id });
  const classId = created!.id;
  const rows = await t.db
    .insert(students)
    .values(Array.from({ length: size }, (_, index) => ({ schoolId, classId, name: `幼儿${unique()}-${index + 1}`, state: 1 })))
    .returning({ id: students.id });
  return { classId, studentIds: rows.map((row) => row.id) };
}

/** Photos uploaded through UploadImgs (checked by their bytes there), answered as the addresses an image field takes. */
export async function uploadPhotos(t: TestApp, token: string, photos: readonly Buffer[]): Promise<string[]> {
  const urls: string[] = [];
  for (let start = 0; start < photos.length; start += 10) {
    const batch = photos.slice(start, start + 10);
    const { payload, headers } = multipartFiles(batch.map((content, index) => ({ filename: `photo${start + index}.jpg`, content, type: 'image/jpeg' })));
    const response = await t.injectAs(token, { method: 'POST', url: '/api/File/UploadImgs', payload, headers });
    const body = response.json() as { code: number; data: { url: string }[] };
    expect(body.code, response.body).toBe(200);
    urls.push(...body.data.map((file) => file.url));
  }
  return urls;
}

const photoCache = new Map<string, Buffer>();
/** A sample photo, encoded once per size and colour (encoding is the slow part of a test). */
export function photoOf(width: number, height: number, seed: number): Buffer {
  const key = `${width}x${height}:${seed}`;
  if (!photoCache.has(key)) photoCache.set(key, samplePhoto(width, height, seed));
  return photoCache.get(key)!;
}

/** Adds `count` photos of a child to a task (a size varied per photo), answering their ids. */
export async function addPhotos(t: TestApp, token: string, taskId: number, studentId: number, count: number, size: { width: number; height: number } = { width: 1200, height: 900 }): Promise<number[]> {
  const urls = await uploadPhotos(t, token, Array.from({ length: count }, (_, index) => photoOf(size.width, size.height, (studentId + index) % 3)));
  const ids: number[] = [];
  for (const [index, image] of urls.entries()) {
    const { id } = await call<{ id: number }>(t, token, 'POST', '/api/AlbumPhoto/Add', { taskId, studentId, image, caption: `第${index + 1}张` });
    ids.push(id);
  }
  return ids;
}

/** The school's first class id, for Add bodies. */
export async function firstClassOf(t: TestApp, schoolId: number): Promise<number | undefined> {
  const [found] = await t.db.select({ id: schoolClasses.id }).from(schoolClasses).where(eq(schoolClasses.schoolId, schoolId)).limit(1);
  return found?.id;
}

/** A spec, template, class with one child and task of the school, inserted directly (for the generic family suites' Add bodies). */
export async function albumTaskRows(t: TestApp, schoolId: number): Promise<{ specId: number; templateId: number; taskId: number; classId: number; studentId: number }> {
  const n = unique();
  const [spec] = await t.db.insert(albumSpecs).values({ name: `规格${n}`, trimWidthMm: 210, trimHeightMm: 210, bleedMm: 3, pageCount: 4, binding: 2, paper: 1, enabled: true }).returning({ id: albumSpecs.id });
  const pages = templatePages({ trimWidthMm: 210, trimHeightMm: 210, pageCount: 4 }, 1, true);
  const [template] = await t.db
    .insert(albumTemplates)
    .values({ name: `模板${n}`, specId: spec!.id, trimWidthMm: 210, trimHeightMm: 210, pageCount: 4, coverTitle: '成长', layout: 1, captions: true, photoSlots: photoSlotCount(pages), slots: pages, enabled: true })
    .returning({ id: albumTemplates.id });
  const { classId, studentIds } = await classWithChildren(t, schoolId, 1);
  const [task] = await t.db
    .insert(albumTasks)
    .values({ name: `任务${n}`, schoolId, classId, term: '2026秋季', templateId: template!.id, deadline: '2026-12-31', photosNeeded: photoSlotCount(pages) })
    .returning({ id: albumTasks.id });
  return { specId: spec!.id, templateId: template!.id, taskId: task!.id, classId, studentId: studentIds[0]! };
}

/** A rendered book of a child of the school (its row as the job leaves it), a parent of the child and a default price for its spec. */
export async function doneAlbumBook(t: TestApp, schoolId: number): Promise<{ bookId: number; parentId: number; specId: number; studentId: number }> {
  const { specId, taskId, studentId } = await albumTaskRows(t, schoolId);
  await t.db.insert(albumPriceConfigs).values({ specId, unitPriceJD: 12_800, unitPriceZC: 6_800, unitPriceSJ: 1_990 });
  const { layout } = layBook(templatePages({ trimWidthMm: 210, trimHeightMm: 210, pageCount: 4 }, 1, true), { trimWidthMm: 210, trimHeightMm: 210, bleedMm: 3 }, [], '成长');
  // A print PDF the platform stored (company scope), as the job leaves one: no parent uploaded it.
  const pdfFile = await storedUpload(t, Buffer.from('%PDF-1.7\n%%EOF\n'), 'pdf');
  const [book] = await t.db.insert(albumBooks).values({ taskId, schoolId, studentId, state: ALBUM_BOOK_DONE, progress: 100, pageCount: 4, layout, pdfFile }).returning({ id: albumBooks.id });
  const [parent] = await t.db.insert(parents).values({ phoneNum: `158${unique().padStart(8, '0').slice(-8)}`, name: `家长${unique()}`, schoolId }).returning({ id: parents.id });
  return { bookId: book!.id, parentId: parent!.id, specId, studentId };
}

/** A rendered book of a new child whose new parent is signed in to the app. */
export async function parentWithAlbumBook(t: TestApp, schoolId: number): Promise<{ token: string; bookId: number; specId: number; parentId: number; studentId: number }> {
  const { bookId, parentId, specId, studentId } = await doneAlbumBook(t, schoolId);
  await t.db.insert(parentStudents).values({ parentId, studentId });
  await setParentPassword(t, parentId);
  const [parent] = await t.db.select({ phoneNum: parents.phoneNum }).from(parents).where(eq(parents.id, parentId));
  return { token: await signInParent(t, String(parent!.phoneNum)), bookId, specId, parentId, studentId };
}

/** A printed order's body for the app's Order call. */
export const printedOrder = (bookId: number, copies = 1) => ({ bookId, kind: 1, copies, consigneeName: '王女士', consigneePhone: '13800001111', deliveryAddress: '浙江省杭州市西湖区文三路 100 号' });
