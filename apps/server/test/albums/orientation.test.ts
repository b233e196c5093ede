import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { jpegOrientation, pixelSizeOf } from '../../src/albums/images.js';
import { layBook } from '../../src/albums/layout.js';
import { orientationMatrix, renderBook } from '../../src/albums/render.js';
import jpeg from 'jpeg-js';
import { samplePhoto, sampleSidewaysPortrait, withExifOrientation } from '../../src/albums/sample-photos.js';
import { templatePages } from '../../src/albums/slots.js';

const landscape = samplePhoto(120, 90, 1);

/** Where the matrix takes a point of the stored image's unit square (s right, t up). */
const apply = (m: ReturnType<typeof orientationMatrix>, s: number, t: number) => [m[0] * s + m[2] * t + m[4], m[1] * s + m[3] * t + m[5]];

describe('EXIF orientation', () => {
  it('reads the orientation and answers the size as the photo is seen', () => {
    expect(jpegOrientation(landscape)).toBe(1);
    expect(pixelSizeOf(landscape)).toEqual({ width: 120, height: 90, orientation: 1 });
    expect(pixelSizeOf(withExifOrientation(landscape, 3))).toEqual({ width: 120, height: 90, orientation: 3 });
    // A phone's portrait photo: landscape pixels, turned a quarter to be seen.
    expect(pixelSizeOf(withExifOrientation(landscape, 6))).toEqual({ width: 90, height: 120, orientation: 6 });
    expect(pixelSizeOf(withExifOrientation(landscape, 8))).toEqual({ width: 90, height: 120, orientation: 8 });
  });

  it('stores a phone’s portrait sideways with orientation 6, its sky at the stored left', () => {
    const photo = sampleSidewaysPortrait(60, 80, 2);
    expect(pixelSizeOf(photo)).toEqual({ width: 60, height: 80, orientation: 6 });
    const stored = jpeg.decode(photo);
    expect([stored.width, stored.height]).toEqual([80, 60]);
    // Seen upright, the sky is at the top; stored turned a quarter anticlockwise, the top is the left edge.
    const brightness = (x: number, y: number) => stored.data[(y * stored.width + x) * 4]! + stored.data[(y * stored.width + x) * 4 + 1]! + stored.data[(y * stored.width + x) * 4 + 2]!;
    expect(brightness(1, 30)).toBeGreaterThan(brightness(78, 30));
  });

  it('takes each stored corner to where the orientation shows it', () => {
    // The stored top-left pixel (s 0, t 1) is seen top-left (1), top-right (2, 6), bottom-right (3, 7), bottom-left (4, 8), top-left (5).
    const topLeftSeenAt: Record<number, number[]> = { 1: [0, 1], 2: [1, 1], 3: [1, 0], 4: [0, 0], 5: [0, 1], 6: [1, 1], 7: [1, 0], 8: [0, 0] };
    for (const [orientation, seen] of Object.entries(topLeftSeenAt)) expect(apply(orientationMatrix(Number(orientation)), 0, 1), `orientation ${orientation}`).toEqual(seen);
    // And the stored top-right pixel (s 1, t 1): a quarter turn clockwise (6) shows it bottom-right.
    expect(apply(orientationMatrix(6), 1, 1)).toEqual([1, 0]);
    expect(apply(orientationMatrix(8), 1, 1)).toEqual([0, 1]);
  });

  it('crops a turned photo as seen and prints it turned', async () => {
    const photo = withExifOrientation(landscape, 6);
    const size = pixelSizeOf(photo)!;
    const pages = templatePages({ trimWidthMm: 210, trimHeightMm: 210, pageCount: 4 }, 1, false);
    const { layout } = layBook(pages, { trimWidthMm: 210, trimHeightMm: 210, bleedMm: 3 }, [{ id: 1, image: '/uploads/2026/03/p.jpg', caption: null, width: size.width, height: size.height }], '成长');
    const slot = layout.pages.flatMap((page) => page.slots).find((candidate) => candidate.photoId === 1)!;
    // The crop has the slot's aspect in the photo as seen (90 × 120), not as stored (120 × 90).
    expect((slot.crop!.w * 90) / (slot.crop!.h * 120)).toBeCloseTo(slot.w / slot.h, 3);
    const { pdf } = await renderBook(layout, async () => photo);
    const doc = await PDFDocument.load(pdf);
    const page = doc.getPages()[layout.pages.findIndex((candidate) => candidate.slots.includes(slot))]!;
    const contents = page.node.get(PDFName.of('Contents'));
    const streams = (contents instanceof PDFArray ? contents.asArray() : [contents!]).map((ref) => doc.context.lookup(ref) as PDFRawStream);
    const text = streams.map((stream) => inflateSync(Buffer.from(stream.getContents())).toString('latin1')).join('\n');
    expect(text).toContain('0 -1 1 0 0 1 cm');
  });
});
