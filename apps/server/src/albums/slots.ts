/**
 * A template's slots: where each page holds a photo, its caption and the cover's title, in mm from
 * the trim box's top left. Computed from the spec's size and pages and the template's layout, so a
 * template never disagrees with its spec (docs/decisions.md "Album templates are a layout over a spec").
 */

export interface AlbumSlot {
  kind: 'photo' | 'caption' | 'title';
  x: number;
  y: number;
  w: number;
  h: number;
  /** A caption's photo slot, by its index among the page's slots. */
  of?: number;
}

export interface TemplatePage {
  page: number;
  slots: AlbumSlot[];
}

/** Kept clear of the trim on every side: a print house cuts within ±2 mm. */
const SAFE_MM = 10;
const GAP_MM = 6;
const CAPTION_MM = 10;
const TITLE_MM = 22;

const round = (value: number) => Math.round(value * 10) / 10;

/** A row of photos (each with its caption below when `captions`) filling the box. */
function grid(x: number, y: number, w: number, h: number, columns: number, rows: number, captions: boolean): AlbumSlot[] {
  const cellW = (w - GAP_MM * (columns - 1)) / columns;
  const cellH = (h - GAP_MM * (rows - 1)) / rows;
  const slots: AlbumSlot[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const cx = x + column * (cellW + GAP_MM);
      const cy = y + row * (cellH + GAP_MM);
      const photoH = captions ? cellH - CAPTION_MM : cellH;
      slots.push({ kind: 'photo', x: round(cx), y: round(cy), w: round(cellW), h: round(photoH) });
      if (captions) slots.push({ kind: 'caption', x: round(cx), y: round(cy + photoH), w: round(cellW), h: CAPTION_MM, of: slots.length - 1 });
    }
  }
  return slots;
}

/** Photos on an inner page of `layout` (ALBUM_LAYOUT_OPTIONS); 4 alternates one and two. */
function photosOnPage(layout: number, page: number): { columns: number; rows: number } {
  if (layout === 2) return { columns: 1, rows: 2 };
  if (layout === 3) return { columns: 2, rows: 2 };
  if (layout === 4) return page % 2 === 0 ? { columns: 1, rows: 1 } : { columns: 1, rows: 2 };
  return { columns: 1, rows: 1 };
}

/** Every page's slots: page 1 is the cover (a photo and the title), the others follow the layout. */
export function templatePages(spec: { trimWidthMm: number; trimHeightMm: number; pageCount: number }, layout: number, captions: boolean): TemplatePage[] {
  const w = spec.trimWidthMm - 2 * SAFE_MM;
  const h = spec.trimHeightMm - 2 * SAFE_MM;
  const coverPhotoH = round(h - TITLE_MM - GAP_MM);
  const pages: TemplatePage[] = [
    {
      page: 1,
      slots: [
        { kind: 'photo', x: SAFE_MM, y: SAFE_MM, w: round(w), h: coverPhotoH },
        { kind: 'title', x: SAFE_MM, y: round(SAFE_MM + coverPhotoH + GAP_MM), w: round(w), h: TITLE_MM },
      ],
    },
  ];
  for (let page = 2; page <= spec.pageCount; page++) {
    const { columns, rows } = photosOnPage(layout, page);
    pages.push({ page, slots: grid(SAFE_MM, SAFE_MM, w, h, columns, rows, captions) });
  }
  return pages;
}

/** The photo slots of a template's pages: the photos a child needs for a full book. */
export function photoSlotCount(pages: readonly TemplatePage[]): number {
  return pages.reduce((count, page) => count + page.slots.filter((slot) => slot.kind === 'photo').length, 0);
}
