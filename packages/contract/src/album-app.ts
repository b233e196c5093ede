/** The parent app's album calls (issue 30): books of the parent's children, ordering and paying, and the page-turning view of an electronic album. */
import { z } from 'zod';
import { APP_PAY_SCENES, wechatAppPayParamsSchema } from './app.js';
import { idSchema, strictIdSchema } from './integer-schemas.js';

export const ALBUM_APP_PATHS = {
  books: '/api/App/Album/Books',
  order: '/api/App/Album/Order',
  orders: '/api/App/Album/Orders',
  pay: '/api/App/Album/Pay',
  photos: '/api/App/Album/Photos',
  versions: '/api/App/Album/Versions',
  saveVersion: '/api/App/Album/SaveVersion',
} as const;

const changeSchema = z.union([
  z.strictObject({ page: z.number().int().min(1).max(500), slot: z.number().int().min(0).max(50), photoId: strictIdSchema.describe('Another photo of the child in the book’s task') }),
  z.strictObject({ page: z.number().int().min(1).max(500), slot: z.number().int().min(0).max(50), caption: z.string().trim().max(60).describe('The caption slot’s new text (empty clears it)') }),
]);

/** A parent's save of its changes to a child's book: the next version, from the latest (or the version named). */
export const appAlbumVersionSaveSchema = z.strictObject({
  bookId: strictIdSchema,
  fromVersionNo: strictIdSchema.optional().describe('The version the changes start from; default the latest (or the automatic book when none)'),
  changes: z.array(changeSchema).min(1).max(200),
});
export type AppAlbumVersionSave = z.infer<typeof appAlbumVersionSaveSchema>;

export const appAlbumBookQuerySchema = z.object({ bookId: idSchema });

export const appAlbumPhotoSchema = z.object({ id: z.number(), image: z.string().describe('Signed address'), caption: z.string().nullable(), width: z.number().nullable(), height: z.number().nullable() });

export const appAlbumVersionSchema = z.object({
  id: z.number(),
  versionNo: z.number(),
  createdAt: z.string(),
  changeCount: z.number(),
  state: z.number().describe('PDF: 1 queued, 2 rendering, 3 done, 4 failed; order a version once done'),
  layout: z.unknown().describe('Pages and slots with signed photo addresses'),
});

/** Where an electronic album is read: `/album-view/<orderId>?e=<expiry>&s=<HMAC>&p=<page>`, no sign-in. */
export const ALBUM_VIEW_PREFIX = '/album-view/';

export const appAlbumOrderSchema = z.strictObject({
  bookId: strictIdSchema,
  versionNo: strictIdSchema.optional().describe('A customised version of the book to print; default the automatic book'),
  kind: z.union([z.literal(1), z.literal(2)]).describe('1 printed, 2 electronic'),
  copies: z.number().int().min(1).max(20).default(1).describe('Printed copies (an electronic album is one)'),
  consigneeName: z.string().trim().min(1).max(50).optional(),
  consigneePhone: z.string().trim().regex(/^1\d{10}$/).optional(),
  deliveryAddress: z.string().trim().min(1).max(200).optional(),
  scene: z.enum(APP_PAY_SCENES).default('app').describe('app: WeChat in the app (SDK parameters); native: a code to scan'),
});
export type AppAlbumOrder = z.infer<typeof appAlbumOrderSchema>;

export const appAlbumBookSchema = z.object({
  id: z.number(),
  studentId: z.number(),
  studentName: z.string(),
  taskName: z.string(),
  pageCount: z.number(),
  specId: z.number(),
  prices: z.object({ unitPriceJD: z.number(), unitPriceZC: z.number(), unitPriceSJ: z.number() }).nullable().describe('In fen: hardcover, each extra copy, electronic; null when the spec has no price'),
  layout: z.unknown().describe('Pages and slots with signed photo addresses, as the console previews them'),
  version: z.number().describe('The book’s version: a parent’s edits make a new one'),
});

export const appAlbumOrderAnswerSchema = z.object({
  id: z.number(),
  orderNo: z.string(),
  kind: z.number(),
  copies: z.number(),
  amount: z.number().describe('Fen'),
  state: z.number(),
  viewUrl: z.string().nullable().describe('The signed page-turning view of a paid electronic album'),
  outcome: z.enum(['paid', 'pending', 'none']).describe('paid: settled now; pending: the parent pays in WeChat and its notification pays the order; none: not paid by this call (a read)'),
  payParams: wechatAppPayParamsSchema.nullable().describe('What the WeChat app SDK opens, while pending'),
  payUrl: z.string().nullable().describe('The code to scan (native scene), while pending'),
});

/** Pays (again) an unpaid order of the parent: after a pending payment was abandoned in WeChat. */
export const appAlbumPaySchema = z.strictObject({ orderId: strictIdSchema, scene: z.enum(APP_PAY_SCENES).default('app') });
export type AppAlbumOrderAnswer = z.infer<typeof appAlbumOrderAnswerSchema>;
