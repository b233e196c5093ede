/**
 * bench:album — the automatic book's work for a class: lay out and render a 24-page book (cover +
 * 23 pages of two photos: 47 photo slots) for each of 30 children, reading the photos from the upload
 * store as the `album-books` job does, one book after another as one job runner takes them. Prints
 * the time for the class, per book, and the peak resident memory above the process's baseline
 * (sampled every 20 ms), with the load average. The database's few reads and writes per book are left
 * out: they are milliseconds beside the rendering.
 *
 *   npm run bench:album
 *   npm run bench:album -- --children 30 --pages 24 --layout 2 --width 2400 --height 1800
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { uploadLoader } from '@campus/server/src/albums/books.js';
import { layBook, slotCounts } from '@campus/server/src/albums/layout.js';
import { renderBook } from '@campus/server/src/albums/render.js';
import { samplePhoto } from '@campus/server/src/albums/sample-photos.js';
import { photoSlotCount, templatePages } from '@campus/server/src/albums/slots.js';
import { openLocalDiskStorage, newUploadKey, uploadUrlOf } from '@campus/server/src/platform/uploads.js';

const { values: args } = parseArgs({
  options: {
    children: { type: 'string', default: '30' },
    pages: { type: 'string', default: '24' },
    layout: { type: 'string', default: '2' },
    width: { type: 'string', default: '2400' },
    height: { type: 'string', default: '1800' },
  },
});
const children = Number(args.children);
const spec = { trimWidthMm: 285, trimHeightMm: 210, bleedMm: 3, pageCount: Number(args.pages) };
const pages = templatePages(spec, Number(args.layout), true);
const needed = photoSlotCount(pages);

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-album-'));
const storage = await openLocalDiskStorage(root, new Date());
// Twelve distinct photos, stored once per child and slot as teachers upload them (each its own file).
process.stdout.write(`making ${children * needed} photos of ${args.width}×${args.height} … `);
const distinct = Array.from({ length: 12 }, (_, seed) => samplePhoto(Number(args.width), Number(args.height), seed));
const photosOf: { id: number; image: string; caption: string; width: number; height: number }[][] = [];
let id = 0;
for (let child = 0; child < children; child++) {
  const list = [];
  for (let slot = 0; slot < needed; slot++) {
    const key = newUploadKey('jpg', new Date());
    const staged = path.join(storage.stagingDir, `${key.replaceAll('/', '_')}.part`);
    await fs.writeFile(staged, distinct[(child + slot) % distinct.length]!);
    await storage.put(key, staged);
    list.push({ id: ++id, image: uploadUrlOf(key), caption: `第${slot + 1}张`, width: Number(args.width), height: Number(args.height) });
  }
  photosOf.push(list);
}
console.log('done');

globalThis.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const loader = uploadLoader(storage);
const perBook: number[] = [];
let bytes = 0;
let lowDpi = 0;
let filled = 0;
const started = performance.now();
for (let child = 0; child < children; child++) {
  const bookStarted = performance.now();
  const { layout, warnings } = layBook(pages, spec, photosOf[child]!, `幼儿${child + 1} · 我的成长记录`);
  const rendered = await renderBook(layout, loader);
  bytes += rendered.pdf.length;
  lowDpi += warnings.filter((warning) => warning.code === 'lowDpi').length;
  filled += slotCounts(layout).filled;
  if (child === 0) {
    const check = await PDFDocument.load(rendered.pdf);
    if (check.getPageCount() !== spec.pageCount) throw new Error(`the book has ${check.getPageCount()} pages, not ${spec.pageCount}`);
  }
  perBook.push(performance.now() - bookStarted);
}
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
await fs.rm(root, { recursive: true, force: true });

const mb = (value: number) => (value / 1_048_576).toFixed(0);
const sorted = [...perBook].sort((a, b) => a - b);
console.log(`class of ${children}, ${spec.pageCount} pages each (${needed} photo slots, ${filled} filled, ${lowDpi} below 300 dpi)`);
console.log(`time for the class: ${seconds.toFixed(1)} s (target ≤ 60 s); per book p50 ${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(2)} s, max ${(sorted.at(-1)! / 1000).toFixed(2)} s`);
console.log(`peak RSS ${mb(peak)} MB, baseline ${mb(baseline)} MB: ${mb(peak - baseline)} MB above it (target ≤ 300 MB)`);
console.log(`PDFs ${mb(bytes)} MB in all; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
