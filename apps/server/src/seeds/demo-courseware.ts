/**
 * The demo's courseware, added through the same service the Add route calls (the module reads each
 * video's duration from its file): videos and documents filed under the demo directories, in a school
 * of each demo agent. No encoder runs here, so the videos are MP4 files made in code with a real movie
 * header (the length the server reads) but no picture frames; their posters are drawn pictures, stored
 * as the browser's grabbed frame would be. The documents are PDFs made with pdf-lib.
 */
import { COURSEWARE_DOCUMENT, COURSEWARE_VIDEO, EducationCourseware } from '@campus/contract';
import { inArray } from 'drizzle-orm';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { Transaction } from '../db/client.js';
import { educationDirectories, uploadedFiles } from '../db/schema/index.js';
import { scopeOwnerKey } from '../platform/scope.js';
import type { UploadStorage } from '../platform/uploads.js';
import { appStandIn } from '../resources/engine/context.js';
import { addRow } from '../resources/engine/write.js';
import { storeDemoFile, type DemoFile } from './demo-files.js';
import { demoPng } from './demo-media.js';
import { operatorContext } from './demo-operator.js';

/** One ISO base-media box: 32-bit size, four-letter type, payload. */
function mp4Box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/**
 * An MP4 of `seconds`: `ftyp`, `moov` with a version-0 movie header (time scale 1000) and, unless
 * `moovLast` is false, an `mdat` of `mediaBytes` before or after it — the two orders files come in.
 */
export function demoMp4(seconds: number, { mediaBytes = 4096, moovLast = false }: { mediaBytes?: number; moovLast?: boolean } = {}): Buffer {
  const ftyp = mp4Box('ftyp', Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2avc1mp41', 'latin1'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // time scale: units per second
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 16); // duration in those units
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].forEach((value, index) => mvhd.writeUInt32BE(value, 36 + index * 4)); // identity matrix
  mvhd.writeUInt32BE(1, 96); // next track id
  const moov = mp4Box('moov', mp4Box('mvhd', mvhd));
  const mdat = mp4Box('mdat', Buffer.alloc(mediaBytes, 0x5a));
  return moovLast ? Buffer.concat([ftyp, mdat, moov]) : Buffer.concat([ftyp, moov, mdat]);
}

/** A one-page A4 PDF with a title and a few lines (Latin text: the standard fonts have no Chinese). */
export async function demoPdf(title: string, lines: readonly string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawRectangle({ x: 0, y: 762, width: 595, height: 80, color: rgb(0.09, 0.47, 1) });
  page.drawText(title, { x: 48, y: 790, size: 24, font, color: rgb(1, 1, 1) });
  lines.forEach((line, index) => page.drawText(line, { x: 48, y: 700 - index * 28, size: 14, font, color: rgb(0.2, 0.2, 0.2) }));
  return Buffer.from(await pdf.save());
}

interface DemoCourseware {
  title: string;
  directory: string;
  kind: number;
  seconds?: number;
  document?: { title: string; lines: string[] };
  remark?: string;
}

const DEMO_COURSEWARE: DemoCourseware[] = [
  { title: '过马路看红绿灯', directory: '上下学路上', kind: COURSEWARE_VIDEO, seconds: 95, remark: '认识红绿灯和斑马线' },
  { title: '系好安全带', directory: '乘车安全', kind: COURSEWARE_VIDEO, seconds: 62 },
  { title: '火灾逃生演练', directory: '火灾逃生', kind: COURSEWARE_VIDEO, seconds: 184, remark: '低姿、捂口鼻、有序撤离' },
  { title: '防溺水安全须知', directory: '防溺水', kind: COURSEWARE_DOCUMENT, document: { title: 'Water safety', lines: ['Never swim alone.', 'Stay away from deep water.', 'Call an adult for help.'] } },
  { title: '亲子共读指南', directory: '亲子阅读', kind: COURSEWARE_DOCUMENT, document: { title: 'Reading together', lines: ['Fifteen minutes a day.', 'Let the child turn the pages.', 'Ask about the pictures.'] } },
  { title: '认识我的情绪', directory: '情绪管理', kind: COURSEWARE_VIDEO, seconds: 128 },
];

/** The demo courseware's files, stored before the seed's transaction (a store is no database). */
export async function storeDemoCoursewareFiles(storage: UploadStorage, now: Date): Promise<Map<string, { file: DemoFile; poster?: DemoFile }>> {
  const files = new Map<string, { file: DemoFile; poster?: DemoFile }>();
  for (const [index, item] of DEMO_COURSEWARE.entries()) {
    if (item.kind === COURSEWARE_VIDEO) {
      const file = await storeDemoFile(storage, demoMp4(item.seconds!, { moovLast: index % 2 === 1 }), 'mp4', now);
      const poster = await storeDemoFile(storage, demoPng(320, 180, [22, 119, 255], [19, 194, 194], 20 + index), 'png', now);
      files.set(item.title, { file, poster });
    } else {
      files.set(item.title, { file: await storeDemoFile(storage, await demoPdf(item.document!.title, item.document!.lines), 'pdf', now) });
    }
  }
  return files;
}

/** Adds the demo courseware for each school in `schoolIds` through the engine's Add, as the console does. */
export async function seedDemoCourseware(
  tx: Transaction,
  adminId: number,
  schoolIds: readonly number[],
  files: Map<string, { file: DemoFile; poster?: DemoFile }>,
  storage: UploadStorage,
  now: Date,
): Promise<void> {
  const stored = [...files.values()].flatMap(({ file, poster }) => (poster ? [file, poster] : [file]));
  await tx.insert(uploadedFiles).values(stored.map((file) => ({ key: file.key, scopeKey: scopeOwnerKey({ id: 0, type: 'company', parentId: null }), size: file.size, sha256: file.sha256 })));
  const directories = await tx
    .select({ id: educationDirectories.id, name: educationDirectories.name })
    .from(educationDirectories)
    .where(inArray(educationDirectories.name, DEMO_COURSEWARE.map((item) => item.directory)));
  const directoryId = new Map(directories.map((row) => [row.name, Number(row.id)]));
  const contextOf = await operatorContext(tx, adminId, { now: () => now });
  // The module reads each video's length from the store, as the route's Add does.
  const ctx = { ...contextOf(EducationCourseware), server: appStandIn('the demo seed', { uploads: storage }) };
  for (const [position, schoolId] of schoolIds.entries()) {
    // The second school gets every other item, so the agents' pages differ.
    for (const [index, item] of DEMO_COURSEWARE.entries()) {
      if (position > 0 && index % 2 === 1) continue;
      const { file, poster } = files.get(item.title)!;
      await addRow(ctx, {
        title: item.title,
        directoryId: directoryId.get(item.directory)!,
        schoolId,
        kind: item.kind,
        ...(item.kind === COURSEWARE_VIDEO ? { videoFile: file.url, posterImage: poster!.url } : { documentFile: file.url }),
        remark: item.remark ?? null,
        enabled: true,
      });
    }
  }
}
