/**
 * An album's pages drawn from their slots (mm from the trim's top left): a template's empty slots, or
 * a book's photos with their crops, so the console previews what the PDF prints.
 */
import { Empty, Typography } from 'antd';

export interface PreviewSlot {
  kind: 'photo' | 'caption' | 'title';
  x: number;
  y: number;
  w: number;
  h: number;
  image?: string;
  /** The part of the photo the slot shows, as fractions of the photo. */
  crop?: { x: number; y: number; w: number; h: number };
  dpi?: number;
  text?: string;
}

export interface PreviewPage {
  page: number;
  slots: PreviewSlot[];
}

const pct = (value: number, of: number) => `${(value / of) * 100}%`;

function Slot({ slot, width, height, lowDpiLabel }: { slot: PreviewSlot; width: number; height: number; lowDpiLabel: string }) {
  const box = { position: 'absolute' as const, left: pct(slot.x, width), top: pct(slot.y, height), width: pct(slot.w, width), height: pct(slot.h, height) };
  if (slot.kind === 'photo' && slot.image && slot.crop) {
    const { crop } = slot;
    return (
      <div style={{ ...box, overflow: 'hidden', background: '#eee' }} title={slot.dpi ? `${slot.dpi} dpi` : undefined}>
        <img
          src={slot.image}
          alt=""
          style={{ position: 'absolute', width: `${100 / crop.w}%`, height: `${100 / crop.h}%`, left: `${(-crop.x / crop.w) * 100}%`, top: `${(-crop.y / crop.h) * 100}%`, maxWidth: 'none' }}
        />
        {slot.dpi !== undefined && slot.dpi < 300 && (
          <span style={{ position: 'absolute', right: 2, bottom: 2, fontSize: 10, background: '#fff1f0', color: '#a8071a', padding: '0 4px', borderRadius: 2 }}>{lowDpiLabel}</span>
        )}
      </div>
    );
  }
  if (slot.kind === 'photo') return <div style={{ ...box, border: '1px dashed #8c8c8c', background: '#fafafa' }} />;
  return (
    <div style={{ ...box, display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden', border: slot.text ? undefined : '1px dotted #bfbfbf', fontSize: slot.kind === 'title' ? 16 : 11, color: '#262626' }}>
      {slot.text}
    </div>
  );
}

/** The pages side by side at `pageWidth` px each, with their numbers. */
export function AlbumPages({ pages, widthMm, heightMm, pageWidth = 220, pageLabel, lowDpiLabel }: { pages: readonly PreviewPage[]; widthMm: number; heightMm: number; pageWidth?: number; pageLabel: (page: number) => string; lowDpiLabel: string }) {
  if (pages.length === 0) return <Empty />;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16 }}>
      {pages.map((page) => (
        <figure key={page.page} style={{ margin: 0 }}>
          <div style={{ position: 'relative', width: pageWidth, height: (pageWidth * heightMm) / widthMm, background: '#fff', boxShadow: '0 1px 4px rgba(0,0,0,0.25)' }}>
            {page.slots.map((slot, index) => (
              <Slot key={index} slot={slot} width={widthMm} height={heightMm} lowDpiLabel={lowDpiLabel} />
            ))}
          </div>
          <Typography.Text type="secondary" style={{ display: 'block', textAlign: 'center', fontSize: 12, marginTop: 4 }}>
            {pageLabel(page.page)}
          </Typography.Text>
        </figure>
      ))}
    </div>
  );
}
