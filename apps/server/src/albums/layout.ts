/**
 * Lays a child's photos into a template's slots: photos in the order they were collected, each
 * cropped about its centre to its slot's aspect (no face detection: docs/decisions.md "Album crops
 * are centre crops"), with its resolution at print size; each slot left empty and each photo below
 * 300 dpi is a warning.
 */
import type { AlbumSlot, TemplatePage } from './slots.js';

export const PRINT_DPI = 300;
const MM_PER_INCH = 25.4;

export interface BookPhoto {
  id: number;
  image: string;
  caption: string | null;
  width: number | null;
  height: number | null;
}

/** A crop as fractions of the photo (0–1), so any rendering of it (PDF, preview) applies it at any size. */
export interface Crop {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LaidSlot extends AlbumSlot {
  photoId?: number;
  image?: string;
  crop?: Crop;
  /** Pixels per inch at the slot's printed size. */
  dpi?: number;
  text?: string;
}

export interface BookLayout {
  trimWidthMm: number;
  trimHeightMm: number;
  bleedMm: number;
  pages: { page: number; slots: LaidSlot[] }[];
}

export type BookWarning =
  | { code: 'slotEmpty'; page: number; slot: number }
  | { code: 'lowDpi'; page: number; slot: number; photoId: number; dpi: number }
  | { code: 'unreadablePhoto'; photoId: number }
  | { code: 'photosUnused'; count: number }
  | { code: 'textNotPrintable'; page: number; slot: number };

/** The centred crop of a `width` × `height` photo to the aspect `slotW` / `slotH`. */
export function centreCrop(width: number, height: number, slotW: number, slotH: number): Crop {
  const slotAspect = slotW / slotH;
  if (width / height > slotAspect) {
    const w = (height * slotAspect) / width;
    return { x: (1 - w) / 2, y: 0, w, h: 1 };
  }
  const h = width / slotAspect / height;
  return { x: 0, y: (1 - h) / 2, w: 1, h };
}

/** Fills each photo slot with the next usable photo and each caption with its photo's caption; the cover's title is `title`. */
export function layBook(pages: readonly TemplatePage[], spec: { trimWidthMm: number; trimHeightMm: number; bleedMm: number }, photos: readonly BookPhoto[], title: string): { layout: BookLayout; warnings: BookWarning[] } {
  const warnings: BookWarning[] = [];
  const usable = photos.filter((photo) => {
    const readable = photo.width !== null && photo.height !== null && photo.width > 0 && photo.height > 0;
    if (!readable) warnings.push({ code: 'unreadablePhoto', photoId: photo.id });
    return readable;
  });
  let next = 0;
  const laid = pages.map(({ page, slots }) => {
    const out: LaidSlot[] = slots.map((slot) => ({ ...slot }));
    out.forEach((slot, index) => {
      if (slot.kind === 'title') slot.text = title;
      if (slot.kind !== 'photo') return;
      const photo = usable[next];
      if (!photo) {
        warnings.push({ code: 'slotEmpty', page, slot: index });
        return;
      }
      next += 1;
      const crop = centreCrop(photo.width!, photo.height!, slot.w, slot.h);
      const dpi = Math.floor((crop.w * photo.width!) / (slot.w / MM_PER_INCH));
      Object.assign(slot, { photoId: photo.id, image: photo.image, crop, dpi });
      if (dpi < PRINT_DPI) warnings.push({ code: 'lowDpi', page, slot: index, photoId: photo.id, dpi });
    });
    for (const slot of out) {
      if (slot.kind === 'caption' && slot.of !== undefined) {
        const caption = usable.find((photo) => photo.id === out[slot.of!]?.photoId)?.caption;
        if (caption) slot.text = caption;
      }
    }
    return { page, slots: out };
  });
  if (usable.length > next) warnings.push({ code: 'photosUnused', count: usable.length - next });
  return { layout: { trimWidthMm: spec.trimWidthMm, trimHeightMm: spec.trimHeightMm, bleedMm: spec.bleedMm, pages: laid }, warnings };
}

/** Photo slots filled and left empty in a layout. */
export function slotCounts(layout: BookLayout): { filled: number; empty: number } {
  let filled = 0;
  let empty = 0;
  for (const page of layout.pages) {
    for (const slot of page.slots) {
      if (slot.kind !== 'photo') continue;
      if (slot.photoId === undefined) empty += 1;
      else filled += 1;
    }
  }
  return { filled, empty };
}
