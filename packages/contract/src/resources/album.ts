/**
 * Growth albums (issue 30, PRODUCT.md §5): print specs and their prices, templates whose slots the
 * platform lays photos into, photo collections per class and term, and the books made from them
 * (a print-ready PDF per child, rendered by a background job: apps/server/src/albums/).
 */
import { childScope, schoolRef } from './common.js';
import { defineResource, type EnumOption, type FieldDef } from './define.js';

const mmField = (zh: string, en: string, min: number, max: number, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ kind: 'number', integer: true, label: { zh, en }, required: true, min, max, width: 100, ...extra }) as FieldDef;
const createdAtField = (): FieldDef => ({ kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true, filter: 'range', width: 170 });

export const ALBUM_BINDING_OPTIONS = [
  { value: 1, zh: '骑马钉', en: 'Saddle stitch' },
  { value: 2, zh: '无线胶装', en: 'Perfect bound' },
  { value: 3, zh: '锁线胶装', en: 'Sewn' },
  { value: 4, zh: '对裱平摊', en: 'Lay-flat' },
] as const satisfies readonly EnumOption[];

export const ALBUM_PAPER_OPTIONS = [
  { value: 1, zh: '铜版纸', en: 'Gloss coated' },
  { value: 2, zh: '哑粉纸', en: 'Matte coated' },
  { value: 3, zh: '银盐相纸', en: 'Silver-halide photo paper' },
] as const satisfies readonly EnumOption[];

/** A print spec (albumSkuManage): the trim size, bleed, pages, binding and paper a print house makes. */
export const AlbumSpec = defineResource({
  name: 'AlbumSpec',
  label: { zh: '相册规格', en: 'Album spec' },
  table: 'album_specs',
  views: [{ frame: 'albumSkuManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '规格名称', en: 'Name' }, required: true, max: 50, unique: true, filter: 'name', sortable: true, width: 180 },
    trimWidthMm: mmField('成品宽(mm)', 'Trim width (mm)', 50, 600),
    trimHeightMm: mmField('成品高(mm)', 'Trim height (mm)', 50, 600),
    bleedMm: mmField('出血(mm)', 'Bleed (mm)', 0, 10, { defaultValue: 3 }),
    // The cover is page 1: a book of 24 pages is a cover and 23 inner pages, one PDF page each.
    pageCount: mmField('页数(含封面)', 'Pages (with cover)', 4, 200, { help: { zh: '封面算第 1 页', en: 'The cover is page 1' } }),
    binding: { kind: 'enum', options: ALBUM_BINDING_OPTIONS, label: { zh: '装订', en: 'Binding' }, required: true, filter: 'equals', width: 110 },
    paper: { kind: 'enum', options: ALBUM_PAPER_OPTIONS, label: { zh: '纸张', en: 'Paper' }, required: true, filter: 'equals', width: 130 },
    enabled: { kind: 'bool', label: { zh: '启用', en: 'Enabled' }, filter: 'equals', defaultValue: true, trueLabel: { zh: '启用', en: 'Enabled' }, falseLabel: { zh: '停用', en: 'Disabled' } },
    createdAt: createdAtField(),
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
});

/**
 * A spec's prices (albumPriceManagement), in fen, in the seed's three variants (docs/decisions.md
 * "Album prices: JD, ZC and SJ"): JD 精装 the printed hardcover book, ZC 追册 each further printed
 * copy of the same book in one order, SJ 手机 the electronic album. A row for a school wins over one
 * for its province, which wins over the default row (no school, no province).
 */
export const AlbumPriceConfig = defineResource({
  name: 'AlbumPriceConfig',
  label: { zh: '相册价格', en: 'Album price' },
  table: 'album_price_configs',
  views: [{ frame: 'albumPriceManagement' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    title: { kind: 'text', label: { zh: '名称', en: 'Name' }, readOnly: true, list: false },
    specId: { kind: 'reference', family: 'AlbumSpec', display: 'name', label: { zh: '规格', en: 'Spec' }, required: true, filter: 'equals', width: 160 },
    schoolId: schoolRef({ required: false, help: { zh: '留空：按省份或默认价', en: 'Empty: the province’s or the default price' } }),
    province: { kind: 'region', part: 'province', label: { zh: '省份', en: 'Province' }, filter: 'equals', help: { zh: '学校和省份都留空为默认价', en: 'No school and no province = the default price' } },
    unitPriceJD: { kind: 'money', label: { zh: '精装价(JD)', en: 'Hardcover (JD)' }, required: true, min: 0, max: 10_000_000, width: 110 },
    unitPriceZC: { kind: 'money', label: { zh: '追册价(ZC)', en: 'Extra copy (ZC)' }, required: true, min: 0, max: 10_000_000, width: 110 },
    unitPriceSJ: { kind: 'money', label: { zh: '电子相册价(SJ)', en: 'Electronic (SJ)' }, required: true, min: 0, max: 10_000_000, width: 120 },
    remark: { kind: 'text', label: { zh: '备注', en: 'Remark' }, max: 200, list: false },
    createdAt: createdAtField(),
  },
  indexes: [['specId', 'schoolId'], ['specId', 'province']],
});

export const ALBUM_LAYOUT_OPTIONS = [
  { value: 1, zh: '单图整版', en: 'One photo a page' },
  { value: 2, zh: '双图上下', en: 'Two photos a page' },
  { value: 3, zh: '四宫格', en: 'Four photos a page' },
  { value: 4, zh: '图文交替', en: 'One and two, alternating' },
] as const satisfies readonly EnumOption[];

/** A template (albumTemplate): a spec's page size and count, its cover, and the slots of each page (computed from the layout, in mm from the trim's top left). */
export const AlbumTemplate = defineResource({
  name: 'AlbumTemplate',
  label: { zh: '相册模板', en: 'Album template' },
  table: 'album_templates',
  views: [{ frame: 'albumTemplate' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '模板名称', en: 'Name' }, required: true, max: 50, unique: true, filter: 'name', sortable: true, width: 180 },
    specId: { kind: 'reference', family: 'AlbumSpec', display: 'name', label: { zh: '规格', en: 'Spec' }, required: true, filter: 'equals', width: 160 },
    trimWidthMm: { kind: 'number', label: { zh: '页宽(mm)', en: 'Page width (mm)' }, readOnly: true, width: 100 },
    trimHeightMm: { kind: 'number', label: { zh: '页高(mm)', en: 'Page height (mm)' }, readOnly: true, width: 100 },
    pageCount: { kind: 'number', label: { zh: '页数', en: 'Pages' }, readOnly: true, width: 80 },
    coverTitle: { kind: 'text', label: { zh: '封面标题', en: 'Cover title' }, required: true, max: 40, list: false },
    coverImage: { kind: 'image', label: { zh: '封面底图', en: 'Cover background' }, list: false },
    layout: { kind: 'enum', options: ALBUM_LAYOUT_OPTIONS, label: { zh: '内页版式', en: 'Inner layout' }, required: true, filter: 'equals', width: 130 },
    captions: { kind: 'bool', label: { zh: '图片配文', en: 'Captions' }, defaultValue: true, trueLabel: { zh: '有', en: 'Yes' }, falseLabel: { zh: '无', en: 'No' }, width: 80 },
    photoSlots: { kind: 'number', label: { zh: '照片位', en: 'Photo slots' }, readOnly: true, width: 90 },
    slots: { kind: 'json', label: { zh: '版位', en: 'Slots' }, readOnly: true, list: false, exported: false },
    enabled: { kind: 'bool', label: { zh: '启用', en: 'Enabled' }, filter: 'equals', defaultValue: true, trueLabel: { zh: '启用', en: 'Enabled' }, falseLabel: { zh: '停用', en: 'Disabled' } },
  },
  toggles: [{ field: 'enabled', button: 'update' }],
  indexes: [['specId']],
});

/** A photo collection (albumTask) of one class for one term, due by a deadline, made into books with one template. */
export const AlbumTask = defineResource({
  name: 'AlbumTask',
  label: { zh: '相册任务', en: 'Album task' },
  table: 'album_tasks',
  views: [{ frame: 'albumTask' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '任务名称', en: 'Name' }, required: true, max: 60, filter: 'name', width: 180 },
    schoolId: schoolRef(),
    classId: { kind: 'reference', family: 'SchoolClass', display: 'className', within: 'schoolId', label: { zh: '班级', en: 'Class' }, required: true, filter: 'equals', width: 120 },
    term: { kind: 'text', label: { zh: '学期', en: 'Term' }, required: true, max: 20, filter: 'equals', width: 110, help: { zh: '如 2026秋季', en: 'e.g. 2026 autumn' } },
    templateId: { kind: 'reference', family: 'AlbumTemplate', display: 'name', label: { zh: '模板', en: 'Template' }, required: true, filter: 'equals', width: 160 },
    deadline: { kind: 'date', label: { zh: '截止日期', en: 'Deadline' }, required: true, filter: 'range', sortable: true, width: 120 },
    photosNeeded: { kind: 'number', label: { zh: '每人所需照片', en: 'Photos per child' }, readOnly: true, width: 110 },
    childCount: { kind: 'number', label: { zh: '幼儿数', en: 'Children' }, computed: true, width: 90 },
    childrenComplete: { kind: 'number', label: { zh: '已收齐', en: 'Complete' }, computed: true, width: 90 },
    photoCount: { kind: 'number', label: { zh: '已收照片', en: 'Photos' }, computed: true, width: 90 },
    // Each child of the class with the photos collected and needed (AlbumChildProgress[]).
    childProgress: { kind: 'json', label: { zh: '收集进度', en: 'Progress per child' }, computed: true, list: false, exported: false },
    createdAt: createdAtField(),
  },
  actions: [
    {
      verb: 'MakeBooks',
      button: 'update',
      label: { zh: '自动成书', en: 'Make books' },
      confirm: { zh: '为本班每位幼儿排版并生成印刷 PDF（后台进行）。确定吗？', en: 'Lay out and render a print-ready PDF for every child of the class (in the background). Go ahead?' },
    },
  ],
  indexes: [['schoolId', 'classId', 'term']],
});

/** A photo of a child collected for a task; a tab of the task's drawer. */
export const AlbumPhoto = defineResource({
  name: 'AlbumPhoto',
  label: { zh: '相册照片', en: 'Album photo' },
  table: 'album_photos',
  views: [{ frame: 'albumTask' }],
  parent: { family: 'AlbumTask', field: 'taskId' },
  scope: childScope(AlbumTask, 'taskId'),
  titleField: 'caption',
  defaultSort: { field: 'id', order: 'asc' },
  fields: {
    taskId: { kind: 'reference', family: 'AlbumTask', display: 'name', label: { zh: '任务', en: 'Task' }, required: true, filter: 'equals' },
    schoolId: schoolRef({ from: 'taskId' }),
    studentId: { kind: 'reference', family: 'Student', display: 'name', within: 'schoolId', label: { zh: '幼儿', en: 'Child' }, required: true, filter: 'equals', width: 120 },
    image: { kind: 'image', label: { zh: '照片', en: 'Photo' }, required: true, width: 90 },
    caption: { kind: 'text', label: { zh: '配文', en: 'Caption' }, max: 60, width: 200 },
    pixelWidth: { kind: 'number', label: { zh: '宽(px)', en: 'Width (px)' }, readOnly: true, width: 90 },
    pixelHeight: { kind: 'number', label: { zh: '高(px)', en: 'Height (px)' }, readOnly: true, width: 90 },
    createdAt: createdAtField(),
  },
  indexes: [['taskId', 'studentId']],
});

/** One child's collection in a task: `childProgress` of an AlbumTask row. */
export interface AlbumChildProgress {
  studentId: number;
  name: string;
  photos: number;
  needed: number;
}

export const ALBUM_BOOK_QUEUED = 1 as const;
export const ALBUM_BOOK_RENDERING = 2 as const;
export const ALBUM_BOOK_DONE = 3 as const;
export const ALBUM_BOOK_FAILED = 4 as const;

export const ALBUM_BOOK_STATE_OPTIONS = [
  { value: ALBUM_BOOK_QUEUED, zh: '排队中', en: 'Queued', color: 'default' },
  { value: ALBUM_BOOK_RENDERING, zh: '生成中', en: 'Rendering', color: 'processing' },
  { value: ALBUM_BOOK_DONE, zh: '已完成', en: 'Done', color: 'green' },
  { value: ALBUM_BOOK_FAILED, zh: '失败', en: 'Failed', color: 'red' },
] as const satisfies readonly EnumOption[];

/**
 * A child's book (automaticBook): the task's photos laid into the template's slots and rendered as a
 * print-ready PDF by the `album-books` job. `layout` holds each page's slots with the photo and crop
 * put there (the console's preview draws it); `warnings` each slot left empty and each photo printed
 * below 300 dpi.
 */
export const AlbumBook = defineResource({
  name: 'AlbumBook',
  label: { zh: '自动成书', en: 'Automatic book' },
  table: 'album_books',
  views: [{ frame: 'automaticBook' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    title: { kind: 'text', label: { zh: '相册', en: 'Book' }, readOnly: true, filter: 'name', width: 220 },
    taskId: { kind: 'reference', family: 'AlbumTask', display: 'name', label: { zh: '相册任务', en: 'Album task' }, required: true, filter: 'equals', width: 180 },
    schoolId: schoolRef({ from: 'taskId' }),
    studentId: { kind: 'reference', family: 'Student', display: 'name', within: 'schoolId', label: { zh: '幼儿', en: 'Child' }, required: true, filter: 'equals', width: 120 },
    state: { kind: 'enum', options: ALBUM_BOOK_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, filter: 'equals', width: 100 },
    progress: { kind: 'number', label: { zh: '进度(%)', en: 'Progress (%)' }, readOnly: true, width: 100 },
    pageCount: { kind: 'number', label: { zh: '页数', en: 'Pages' }, readOnly: true, width: 70 },
    slotsFilled: { kind: 'number', label: { zh: '已填照片位', en: 'Slots filled' }, readOnly: true, width: 100 },
    slotsEmpty: { kind: 'number', label: { zh: '空照片位', en: 'Slots empty' }, readOnly: true, width: 100 },
    lowDpiCount: { kind: 'number', label: { zh: '低于300dpi', en: 'Below 300 dpi' }, readOnly: true, width: 110 },
    pdfFile: { kind: 'file', files: 'document', label: { zh: '印刷PDF', en: 'Print PDF' }, readOnly: true, width: 130 },
    layout: { kind: 'json', label: { zh: '排版', en: 'Layout' }, readOnly: true, list: false, exported: false },
    warnings: { kind: 'json', label: { zh: '提示', en: 'Warnings' }, readOnly: true, list: false, exported: false },
    error: { kind: 'text', label: { zh: '错误', en: 'Error' }, readOnly: true, list: false },
    finishedAt: { kind: 'datetime', label: { zh: '完成时间', en: 'Finished' }, readOnly: true, sortable: true, width: 170 },
    createdAt: createdAtField(),
  },
  indexes: [['taskId', 'studentId'], ['state']],
});

/**
 * A parent's own edit of a child's laid-out book (albumCustomized): made through the app channel only
 * (a photo swapped for another of the child's, a caption changed), each save a new version beside the
 * others, never overwriting one (an append-only log: the console reads and previews them). The
 * `album-books` job renders each version's print PDF; an order may name the version it prints.
 */
export const AlbumBookVersion = defineResource({
  name: 'AlbumBookVersion',
  label: { zh: '定制版本', en: 'Customised version' },
  table: 'album_book_versions',
  views: [{ frame: 'albumCustomized' }],
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  log: { timeField: 'createdAt', defaultDays: 90 },
  titleField: 'title',
  fields: {
    createdAt: { kind: 'datetime', label: { zh: '保存时间', en: 'Saved' }, required: true, filter: 'range', width: 170 },
    title: { kind: 'text', label: { zh: '相册', en: 'Book' }, filter: 'name', width: 220 },
    versionNo: { kind: 'number', integer: true, label: { zh: '版本', en: 'Version' }, required: true, width: 80 },
    bookId: { kind: 'reference', family: 'AlbumBook', display: 'title', label: { zh: '自动成书', en: 'Automatic book' }, required: true, filter: 'equals', list: false },
    schoolId: schoolRef(),
    studentId: { kind: 'reference', family: 'Student', display: 'name', within: 'schoolId', label: { zh: '幼儿', en: 'Child' }, required: true, filter: 'equals', width: 110 },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 110 },
    changeCount: { kind: 'number', integer: true, label: { zh: '改动数', en: 'Changes' }, width: 90 },
    // What this save changed against the version it started from (AlbumVersionChange[]).
    changes: { kind: 'json', label: { zh: '改动', en: 'Changes made' }, list: false, exported: false },
    layout: { kind: 'json', label: { zh: '排版', en: 'Layout' }, list: false, exported: false },
    state: { kind: 'enum', options: ALBUM_BOOK_STATE_OPTIONS, label: { zh: 'PDF状态', en: 'PDF state' }, required: true, filter: 'equals', width: 100 },
    pdfFile: { kind: 'file', files: 'document', label: { zh: '印刷PDF', en: 'Print PDF' }, width: 130 },
    renderStartedAt: { kind: 'datetime', label: { zh: '开始生成', en: 'Rendering since' }, list: false, exported: false },
  },
  uniqueIndexes: [['bookId', 'versionNo']],
  indexes: [['state', 'id']],
});

/** One change of a customised version: a slot's photo swapped, or a caption set. */
export type AlbumVersionChange = { page: number; slot: number; photoId: number } | { page: number; slot: number; caption: string };

export const ALBUM_ORDER_PRINTED = 1;
export const ALBUM_ORDER_ELECTRONIC = 2;
export const ALBUM_ORDER_KIND_OPTIONS = [
  { value: ALBUM_ORDER_PRINTED, zh: '纸质相册', en: 'Printed', color: 'blue' },
  { value: ALBUM_ORDER_ELECTRONIC, zh: '电子相册', en: 'Electronic', color: 'purple' },
] as const satisfies readonly EnumOption[];

export const ALBUM_ORDER_UNPAID = 1 as const;
export const ALBUM_ORDER_PAID = 2 as const;
export const ALBUM_ORDER_SENT = 3 as const;
export const ALBUM_ORDER_PRINT_NOTIFIED = 4 as const;
export const ALBUM_ORDER_PRINT_ALLOWED = 5 as const;
export const ALBUM_ORDER_RECEIVED = 6 as const;
export const ALBUM_ORDER_CLOSED = 7 as const;
export const ALBUM_ORDER_CANCELLED = 9 as const;

export const ALBUM_ORDER_STATE_OPTIONS = [
  { value: ALBUM_ORDER_UNPAID, zh: '待支付', en: 'Unpaid', color: 'default' },
  { value: ALBUM_ORDER_PAID, zh: '已支付', en: 'Paid', color: 'blue' },
  { value: ALBUM_ORDER_SENT, zh: '已送印', en: 'Sent to print', color: 'cyan' },
  { value: ALBUM_ORDER_PRINT_NOTIFIED, zh: '已通知印刷', en: 'Print notified', color: 'geekblue' },
  { value: ALBUM_ORDER_PRINT_ALLOWED, zh: '准予印刷', en: 'Print allowed', color: 'purple' },
  { value: ALBUM_ORDER_RECEIVED, zh: '已收货', en: 'Received', color: 'green' },
  { value: ALBUM_ORDER_CLOSED, zh: '已关闭', en: 'Closed', color: 'default' },
  { value: ALBUM_ORDER_CANCELLED, zh: '已取消', en: 'Cancelled', color: 'red' },
] as const satisfies readonly EnumOption[];

const remarkField = (): FieldDef => ({ kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 200 });

/**
 * A parent's album order (albumOrder: printed; albumElectronicOrder: electronic), placed and paid
 * through the app channel at the price config's price of that moment. A printed order then goes
 * through production (albumProduction: the same rows, with the print house's steps).
 */
export const AlbumOrder = defineResource({
  name: 'AlbumOrder',
  label: { zh: '相册订单', en: 'Album order' },
  table: 'album_orders',
  views: [
    { frame: 'albumOrder', fixed: { kind: ALBUM_ORDER_PRINTED } },
    { frame: 'albumElectronicOrder', fixed: { kind: ALBUM_ORDER_ELECTRONIC } },
    { frame: 'albumProduction', fixed: { kind: ALBUM_ORDER_PRINTED } },
  ],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'orderNo',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    orderNo: { kind: 'text', label: { zh: '订单号', en: 'Order no.' }, readOnly: true, numbered: { prefix: 'XC' }, filter: 'code', width: 180 },
    kind: { kind: 'enum', options: ALBUM_ORDER_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, required: true, filter: 'equals', width: 100 },
    bookId: { kind: 'reference', family: 'AlbumBook', display: 'title', label: { zh: '相册', en: 'Book' }, required: true, filter: 'equals', list: false },
    versionId: { kind: 'reference', family: 'AlbumBookVersion', display: 'title', label: { zh: '定制版本', en: 'Customised version' }, filter: 'equals', list: false, help: { zh: '留空：自动成书的原版', en: 'Empty: the automatic book as laid out' } },
    schoolId: schoolRef({ from: 'bookId' }),
    studentId: { kind: 'reference', family: 'Student', display: 'name', label: { zh: '幼儿', en: 'Child' }, readOnly: true, filter: 'equals', width: 110 },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 110 },
    specId: { kind: 'reference', family: 'AlbumSpec', display: 'name', label: { zh: '规格', en: 'Spec' }, readOnly: true, filter: 'equals', width: 140 },
    copies: { kind: 'number', integer: true, label: { zh: '册数', en: 'Copies' }, required: true, min: 1, max: 20, defaultValue: 1, width: 70 },
    unitPrice: { kind: 'money', label: { zh: '单价', en: 'Unit price' }, readOnly: true, width: 100 },
    amount: { kind: 'money', label: { zh: '金额', en: 'Amount' }, readOnly: true, sortable: true, width: 100 },
    state: { kind: 'enum', options: ALBUM_ORDER_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, filter: 'equals', width: 110 },
    consigneeName: { kind: 'text', label: { zh: '收货人', en: 'Consignee' }, max: 50, list: false },
    consigneePhone: { kind: 'phone', phoneKind: 'mobile', label: { zh: '收货电话', en: 'Phone' }, list: false },
    deliveryAddress: { kind: 'text', label: { zh: '收货地址', en: 'Address' }, max: 200, list: false },
    tradeNo: { kind: 'text', label: { zh: '支付流水号', en: 'Trade no.' }, readOnly: true, list: false },
    paidAt: { kind: 'datetime', label: { zh: '支付时间', en: 'Paid' }, readOnly: true, sortable: true, width: 170 },
    pdfFile: { kind: 'file', files: 'document', label: { zh: '印刷PDF', en: 'Print PDF' }, readOnly: true, width: 130 },
    viewLink: { kind: 'text', label: { zh: '电子相册链接', en: 'Electronic album link' }, computed: true, list: false },
    createdAt: createdAtField(),
  },
  workflow: {
    field: 'state',
    initial: ALBUM_ORDER_UNPAID,
    editableIn: [ALBUM_ORDER_UNPAID, ALBUM_ORDER_PAID],
    deletableIn: [ALBUM_ORDER_UNPAID, ALBUM_ORDER_CANCELLED],
    transitions: [
      { verb: 'Cancel', from: [ALBUM_ORDER_UNPAID], to: ALBUM_ORDER_CANCELLED, button: 'update', label: { zh: '取消', en: 'Cancel' }, fields: { remark: remarkField() }, danger: true, confirm: { zh: '取消这笔未支付的订单？', en: 'Cancel this unpaid order?' } },
      { verb: 'Send', from: [ALBUM_ORDER_PAID], to: ALBUM_ORDER_SENT, button: 'send', label: { zh: '送印', en: 'Send to print' }, fields: { remark: remarkField() }, batch: true },
      { verb: 'NotifyPrint', from: [ALBUM_ORDER_SENT], to: ALBUM_ORDER_PRINT_NOTIFIED, button: 'print', label: { zh: '通知印刷', en: 'Notify print' }, fields: { remark: remarkField() }, batch: true },
      { verb: 'AllowPrint', from: [ALBUM_ORDER_PRINT_NOTIFIED], to: ALBUM_ORDER_PRINT_ALLOWED, button: 'print', label: { zh: '准予印刷', en: 'Allow print' }, fields: { remark: remarkField() }, batch: true },
      { verb: 'ConfirmReceipt', from: [ALBUM_ORDER_PRINT_ALLOWED], to: ALBUM_ORDER_RECEIVED, button: 'close', label: { zh: '确认收货', en: 'Confirm receipt' }, fields: { remark: remarkField() }, batch: true },
      { verb: 'Close', from: [ALBUM_ORDER_RECEIVED], to: ALBUM_ORDER_CLOSED, button: 'close', label: { zh: '关闭订单', en: 'Close order' }, fields: { remark: remarkField() }, danger: true, confirm: { zh: '关闭后订单不能再变更。确定吗？', en: 'A closed order cannot change again. Close it?' }, batch: true },
    ],
    systemTransitions: [{ verb: 'Pay', from: [ALBUM_ORDER_UNPAID], to: ALBUM_ORDER_PAID, label: { zh: '支付', en: 'Paid' } }],
  },
  indexes: [['schoolId', 'kind', 'state'], ['parentId'], ['bookId']],
});
