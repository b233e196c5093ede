/**
 * Renders a laid-out book as a print-ready PDF with pdf-lib: each page is the trim size plus bleed
 * on every side (MediaBox = BleedBox), with its TrimBox set; photos are the stored files embedded
 * unchanged (no re-encoding, so a photo prints at all the resolution it has), turned as their EXIF
 * orientation says, and clipped to their slots; text uses a CJK font when the machine has one (ALBUM_FONT_PATH or Noto Sans CJK), else the
 * standard Helvetica, and text it cannot print is a warning.
 */
import fs from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, clip, concatTransformationMatrix, drawObject, endPath, popGraphicsState, pushGraphicsState, rectangle, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { IMAGE_HEADER_BYTES, jpegOrientation } from './images.js';
import type { BookLayout, BookWarning, LaidSlot } from './layout.js';

const POINTS_PER_MM = 72 / 25.4;

/** Where a CJK font is looked for when ALBUM_FONT_PATH names none: Debian's fonts-noto-cjk. */
const SYSTEM_CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
/** The face taken from a font collection (.ttc). */
const CJK_FACE = 'NotoSansCJKsc-Regular';

let fontBytes: Promise<Buffer | null> | undefined;

/** The CJK font's bytes, read once per process; null when there is none. */
function cjkFontBytes(): Promise<Buffer | null> {
  fontBytes ??= fs.readFile(process.env.ALBUM_FONT_PATH || SYSTEM_CJK_FONT).catch(() => null);
  return fontBytes;
}

/** A fontkit that opens the CJK face of a collection: pdf-lib asks fontkit for one font, a .ttc holds several. */
const collectionFontkit = {
  create(data: Uint8Array) {
    const font = fontkit.create(data as Buffer, CJK_FACE);
    return font ?? fontkit.create(data as Buffer);
  },
};

export interface RenderedBook {
  pdf: Uint8Array;
  warnings: BookWarning[];
}

/** The images a render reads: the bytes of a stored `/uploads/` file. */
export type ImageLoader = (url: string) => Promise<Buffer>;

/** Renders every page of `layout`; `onPage` hears each page done (for the job's progress). */
export async function renderBook(layout: BookLayout, loadImage: ImageLoader, options: { coverImage?: string | null; onPage?: (done: number, total: number) => Promise<void> } = {}): Promise<RenderedBook> {
  const doc = await PDFDocument.create();
  doc.setTitle(layout.pages[0]?.slots.find((slot) => slot.kind === 'title')?.text ?? 'Album');
  doc.setCreator('Campus Ops Console');
  const bytes = await cjkFontBytes();
  let font: PDFFont;
  if (bytes) {
    // pdf-lib calls create() only; the collection's face is picked there.
    doc.registerFontkit(collectionFontkit as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
    font = await doc.embedFont(bytes, { subset: true });
  } else {
    font = await doc.embedFont(StandardFonts.Helvetica);
  }
  const warnings: BookWarning[] = [];
  const bleed = layout.bleedMm * POINTS_PER_MM;
  const trimW = layout.trimWidthMm * POINTS_PER_MM;
  const trimH = layout.trimHeightMm * POINTS_PER_MM;
  const cover = options.coverImage ? await embed(doc, await loadImage(options.coverImage).catch(() => null)) : undefined;
  for (const [index, { page: number, slots }] of layout.pages.entries()) {
    const page = doc.addPage([trimW + 2 * bleed, trimH + 2 * bleed]);
    page.setBleedBox(0, 0, trimW + 2 * bleed, trimH + 2 * bleed);
    page.setTrimBox(bleed, bleed, trimW, trimH);
    if (index === 0 && cover) page.drawImage(cover, { x: 0, y: 0, width: trimW + 2 * bleed, height: trimH + 2 * bleed });
    for (const [slotIndex, slot] of slots.entries()) {
      const box = { x: bleed + slot.x * POINTS_PER_MM, y: bleed + trimH - (slot.y + slot.h) * POINTS_PER_MM, w: slot.w * POINTS_PER_MM, h: slot.h * POINTS_PER_MM };
      if (slot.kind === 'photo' && slot.image && slot.crop) {
        const bytes = await loadImage(slot.image).catch(() => null);
        const image = await embed(doc, bytes);
        if (image) drawCropped(page, image, slot, box, isJpeg(bytes) ? jpegOrientation(bytes!.subarray(0, IMAGE_HEADER_BYTES)) : 1);
        else if (slot.photoId !== undefined) warnings.push({ code: 'unreadablePhoto', photoId: slot.photoId });
      } else if (slot.kind === 'photo') {
        page.drawRectangle({ x: box.x, y: box.y, width: box.w, height: box.h, borderColor: rgb(0.8, 0.8, 0.8), borderWidth: 0.5 });
      } else if (slot.text) {
        if (!drawText(page, font, slot, box)) warnings.push({ code: 'textNotPrintable', page: number, slot: slotIndex });
      }
    }
    await options.onPage?.(index + 1, layout.pages.length);
  }
  return { pdf: await doc.save(), warnings };
}

const isJpeg = (bytes: Buffer | null): boolean => bytes !== null && bytes[0] === 0xff && bytes[1] === 0xd8;

/** A JPEG or PNG embedded as it is; other kinds (GIF, WebP) are not printable without re-encoding. */
async function embed(doc: PDFDocument, bytes: Buffer | null): Promise<PDFImage | undefined> {
  if (!bytes) return undefined;
  if (isJpeg(bytes)) return doc.embedJpg(bytes);
  if (bytes.length > 8 && bytes.readUInt32BE(0) === 0x89504e47) return doc.embedPng(bytes);
  return undefined;
}

/**
 * The matrix [a b c d e f] taking the stored image's unit square (PDF paints an image there, its first
 * row at the top) to the unit square of the photo as seen, for each EXIF orientation: 2 mirrors it, 3
 * turns it half round, 4 flips it, 5 transposes it, 6 turns it a quarter clockwise, 7 transverses it,
 * 8 turns it a quarter anticlockwise.
 */
export function orientationMatrix(orientation: number): [number, number, number, number, number, number] {
  switch (orientation) {
    case 2:
      return [-1, 0, 0, 1, 1, 0];
    case 3:
      return [-1, 0, 0, -1, 1, 1];
    case 4:
      return [1, 0, 0, -1, 0, 1];
    case 5:
      return [0, -1, -1, 0, 1, 1];
    case 6:
      return [0, -1, 1, 0, 0, 1];
    case 7:
      return [0, 1, 1, 0, 0, 0];
    case 8:
      return [0, 1, -1, 0, 1, 0];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}

/** Draws the image (as seen, after its orientation) so its crop fills the slot, clipped to the slot. */
function drawCropped(page: PDFPage, image: PDFImage, slot: LaidSlot, box: { x: number; y: number; w: number; h: number }, orientation: number): void {
  const crop = slot.crop!;
  const width = box.w / crop.w;
  const height = box.h / crop.h;
  const x = box.x - crop.x * width;
  const y = box.y - (1 - crop.y - crop.h) * height;
  // pdf-lib's drawImage can rotate but not mirror: the image is placed with its own matrix instead.
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(
    pushGraphicsState(),
    rectangle(box.x, box.y, box.w, box.h),
    clip(),
    endPath(),
    concatTransformationMatrix(width, 0, 0, height, x, y),
    concatTransformationMatrix(...orientationMatrix(orientation)),
    drawObject(name),
    popGraphicsState(),
  );
}

/** Centred text fitted to the slot; false when the font cannot print it. */
function drawText(page: PDFPage, font: PDFFont, slot: LaidSlot, box: { x: number; y: number; w: number; h: number }): boolean {
  const text = slot.text!;
  try {
    font.encodeText(text);
  } catch {
    return false;
  }
  let size = slot.kind === 'title' ? Math.min(28, box.h * 0.6) : Math.min(11, box.h * 0.6);
  while (size > 5 && font.widthOfTextAtSize(text, size) > box.w) size -= 0.5;
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: box.x + (box.w - width) / 2, y: box.y + (box.h - size) / 2 + size * 0.15, size, font, color: rgb(0.2, 0.2, 0.2) });
  return true;
}
