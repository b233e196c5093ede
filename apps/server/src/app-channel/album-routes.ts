/**
 * The parent app's album calls (issue 30): the books of the parent's children, ordering (and paying)
 * a printed or electronic album, the parent's orders; and the page-turning view an electronic
 * album's signed link opens (no sign-in: the signature is the key).
 */
import { ALBUM_APP_PATHS, ALBUM_VIEW_PREFIX, appAlbumBookQuerySchema, appAlbumBookSchema, appAlbumOrderAnswerSchema, appAlbumOrderSchema, appAlbumPaySchema, appAlbumPhotoSchema, appAlbumVersionSaveSchema, appAlbumVersionSchema } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BookLayout } from '../albums/layout.js';
import { albumPriceFor, isValidViewSignature, parentAlbumOrders, parentBooks, payAlbumOrder, placeAlbumOrder, viewedBook } from '../albums/orders.js';
import { photosOfBook, saveVersion, versionsOfBook } from '../albums/versions.js';
import { envelopeSchema, errorResponses, ok } from '../platform/envelope.js';
import { notFound } from '../platform/errors.js';
import { idempotencyHeadersSchema, onceByKey } from './idempotency.js';

const tags = ['App'];
const config = { parentChannel: true } as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One page of a book as HTML: its slots placed in percent of the page, photos cropped as printed. */
function pageHtml(layout: BookLayout, index: number, sign: (url: string) => string): string {
  const page = layout.pages[index]!;
  const pct = (value: number, of: number) => `${((value / of) * 100).toFixed(3)}%`;
  const slots = page.slots
    .map((slot) => {
      const box = `left:${pct(slot.x, layout.trimWidthMm)};top:${pct(slot.y, layout.trimHeightMm)};width:${pct(slot.w, layout.trimWidthMm)};height:${pct(slot.h, layout.trimHeightMm)}`;
      if (slot.kind === 'photo' && slot.image && slot.crop) {
        const crop = slot.crop;
        return `<div class="slot" style="${box};overflow:hidden"><img alt="" src="${escapeHtml(sign(slot.image))}" style="position:absolute;width:${100 / crop.w}%;height:${100 / crop.h}%;left:${(-crop.x / crop.w) * 100}%;top:${(-crop.y / crop.h) * 100}%"></div>`;
      }
      if (slot.text) return `<div class="slot text ${slot.kind}" style="${box}">${escapeHtml(slot.text)}</div>`;
      return '';
    })
    .join('');
  return `<div class="page" style="aspect-ratio:${layout.trimWidthMm}/${layout.trimHeightMm}">${slots}</div>`;
}

/** A layout with its photo addresses signed for the reader. */
function signedLayout(layout: BookLayout | null, sign: (url: string) => string): BookLayout | null {
  return layout ? { ...layout, pages: layout.pages.map((page) => ({ ...page, slots: page.slots.map((slot) => (slot.image ? { ...slot, image: sign(slot.image) } : slot)) })) } : null;
}

/** A version as the app reads it. */
function versionAnswer(row: Awaited<ReturnType<typeof versionsOfBook>>[number], sign: (url: string) => string) {
  return { id: row.id, versionNo: Number(row.versionNo), createdAt: new Date(row.createdAt!).toISOString(), changeCount: Number(row.changeCount ?? 0), state: Number(row.state), layout: signedLayout(row.layout as BookLayout | null, sign) };
}

export const albumRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    ALBUM_APP_PATHS.photos,
    { config, schema: { tags, summary: "The child's photos of a book's collection: what the parent may swap into the book", querystring: appAlbumBookQuerySchema, response: { 200: envelopeSchema(z.array(appAlbumPhotoSchema)) } } },
    async (request) => {
      const [book] = await parentBooks(app.db, request.parent, request.query.bookId);
      if (!book) throw notFound();
      const signer = await app.mediaUrls();
      const photos = await photosOfBook(app.db, book.id);
      return ok(photos.map((photo) => ({ id: photo.id, image: signer.sign(String(photo.image)), caption: photo.caption ?? null, width: photo.width === null ? null : Number(photo.width), height: photo.height === null ? null : Number(photo.height) })));
    },
  );

  app.get(
    ALBUM_APP_PATHS.versions,
    { config, schema: { tags, summary: "The parent's saved versions of a child's book, newest first", querystring: appAlbumBookQuerySchema, response: { 200: envelopeSchema(z.array(appAlbumVersionSchema)) } } },
    async (request) => {
      const [book] = await parentBooks(app.db, request.parent, request.query.bookId);
      if (!book) throw notFound();
      const signer = await app.mediaUrls();
      return ok((await versionsOfBook(app.db, book.id)).map((row) => versionAnswer(row, (url) => signer.sign(url))));
    },
  );

  app.post(
    ALBUM_APP_PATHS.saveVersion,
    {
      config,
      schema: {
        tags,
        summary: "Save the parent's changes to a child's book (photos swapped, captions) as its next version",
        description: 'Each save is a new version made from the latest (or `fromVersionNo`); none is ever overwritten. A photo must be the child’s in the book’s collection; a slot must be a photo slot (photoId) or a caption slot (caption). Another family’s book is 404. The version’s print PDF is rendered in the background (`state` 3 when done); an Order may then name its `versionNo`.',
        headers: idempotencyHeadersSchema,
        body: appAlbumVersionSaveSchema,
        response: { 200: envelopeSchema(appAlbumVersionSchema) },
      },
    },
    async (request) =>
      ok(
        await onceByKey(request, async () => {
          const row = await saveVersion(app.db, request.parent, request.body, app.clock.now());
          const signer = await app.mediaUrls();
          return versionAnswer(row, (url) => signer.sign(url));
        }),
      ),
  );

  app.get(
    ALBUM_APP_PATHS.books,
    { config, schema: { tags, summary: "The finished albums of the parent's children, with their prices today and their pages", response: { 200: envelopeSchema(z.array(appAlbumBookSchema)) } } },
    async (request) => {
      const signer = await app.mediaUrls();
      const books = await parentBooks(app.db, request.parent);
      return ok(
        await Promise.all(
          books.map(async (book) => {
            const layout = book.layout as BookLayout | null;
            const signed = layout ? { ...layout, pages: layout.pages.map((page) => ({ ...page, slots: page.slots.map((slot) => (slot.image ? { ...slot, image: signer.sign(slot.image) } : slot)) })) } : null;
            return {
              id: book.id,
              studentId: Number(book.studentId),
              studentName: String(book.studentName),
              taskName: String(book.taskName),
              pageCount: Number(book.pageCount ?? 0),
              specId: Number(book.specId),
              prices: (await albumPriceFor(app.db, Number(book.specId), Number(book.schoolId))) ?? null,
              layout: signed,
              version: Number(book.version),
            };
          }),
        ),
      );
    },
  );

  app.post(
    ALBUM_APP_PATHS.order,
    {
      config,
      schema: {
        tags,
        summary: "Order a printed or electronic album of one of the parent's children's books, paid through the finance provider",
        description: 'The price is the spec’s price config now (school, else province, else default): JD + (copies − 1) × ZC printed, SJ electronic. Another family’s book is 404. The demo provider pays at once; WeChat Pay answers `pending` with what the app opens, and its notification pays the order. A paid electronic order answers its signed page-turning view.',
        headers: idempotencyHeadersSchema,
        body: appAlbumOrderSchema,
        response: { 200: envelopeSchema(appAlbumOrderAnswerSchema) },
      },
    },
    async (request) => ok(await onceByKey(request, () => placeAlbumOrder(app, request.parent, request.body))),
  );

  app.post(
    ALBUM_APP_PATHS.pay,
    {
      config,
      schema: {
        tags,
        summary: "Pay the parent's unpaid album order again (a WeChat payment left unfinished); a paid order answers as it is",
        description: 'WeChat Pay answers `pending` with what the app opens; the payment notification pays the order. Another family’s order is 404.',
        headers: idempotencyHeadersSchema,
        body: appAlbumPaySchema,
        response: { 200: envelopeSchema(appAlbumOrderAnswerSchema) },
      },
    },
    async (request) => ok(await onceByKey(request, () => payAlbumOrder(app, request.parent, request.body.orderId, request.body.scene))),
  );

  app.get(ALBUM_APP_PATHS.orders, { config, schema: { tags, summary: "The parent's album orders, newest first", response: { 200: envelopeSchema(z.array(appAlbumOrderAnswerSchema)) } } }, async (request) =>
    ok(await parentAlbumOrders(app, request.parent)),
  );

  app.get(
    `${ALBUM_VIEW_PREFIX}:orderId`,
    {
      schema: {
        tags,
        summary: 'The page-turning view of a paid electronic album (an HTML page; the signed link is the key)',
        params: z.object({ orderId: z.coerce.number().int().positive() }),
        querystring: z.object({ e: z.string().max(12).optional(), s: z.string().max(64).optional(), p: z.coerce.number().int().min(1).max(500).default(1) }),
        // The page itself is HTML (sent as text, never serialised); a bad or expired link answers the 404 envelope.
        response: { 200: z.any().describe('The album page as text/html'), 404: errorResponses[404] },
      },
    },
    async (request, reply) => {
      const { orderId } = request.params;
      const { e, s, p } = request.query;
      if (!(await isValidViewSignature(app, orderId, e, s))) throw notFound();
      const book = await viewedBook(app.db, orderId);
      const layout = book?.layout as BookLayout | null | undefined;
      if (!book || !layout?.pages?.length) throw notFound();
      const signer = await app.mediaUrls();
      const index = Math.min(p, layout.pages.length) - 1;
      const link = (page: number) => `${ALBUM_VIEW_PREFIX}${orderId}?e=${encodeURIComponent(e!)}&amp;s=${encodeURIComponent(s!)}&amp;p=${page}`;
      const html = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(String(book.studentName))}</title>
<style>body{margin:0;background:#3a3a3a;font-family:sans-serif;color:#fff;display:flex;flex-direction:column;align-items:center;gap:12px;padding:16px}
.page{position:relative;width:min(92vw,900px);background:#fff;box-shadow:0 4px 16px rgba(0,0,0,.5)}.slot{position:absolute}.slot img{max-width:none}
.text{display:flex;align-items:center;justify-content:center;color:#333;font-size:14px}.title{font-size:24px}
nav{display:flex;gap:24px;align-items:center}nav a{color:#fff;background:#1677ff;padding:8px 16px;border-radius:6px;text-decoration:none}nav span.off{opacity:.4;padding:8px 16px}</style></head>
<body>${pageHtml(layout, index, (url) => signer.sign(url))}<nav>${index > 0 ? `<a href="${link(index)}" rel="prev">‹ 上一页</a>` : '<span class="off">‹ 上一页</span>'}<span>${index + 1} / ${layout.pages.length}</span>${index + 1 < layout.pages.length ? `<a href="${link(index + 2)}" rel="next">下一页 ›</a>` : '<span class="off">下一页 ›</span>'}</nav></body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').send(html);
    },
  );
};
