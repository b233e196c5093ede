/**
 * The market shop (issue 29, PRODUCT.md §2 and §5): categories, merchants, commodities released to
 * schools, the app's ads, parents' addresses, orders with lines, the points shop (葱米) with its
 * ledger, coupons with their grants, and comments. Parents act through the app channel (the services
 * in apps/server/src/mall/); the console releases, ships, refunds and moderates.
 */
import { enabledField, periodFields, schoolRef } from './common.js';
import { defineResource, type EnumOption, type FieldDef } from './define.js';
import { audienceFields } from './app-screens.js';
import { GRADE_OPTIONS } from './people.js';
import { z } from 'zod';

const imageUrl = (label: FieldDef['label']): FieldDef => ({ kind: 'image', label, width: 80 });
const sortField = (): FieldDef => ({ kind: 'number', integer: true, label: { zh: '排序', en: 'Order' }, min: 0, max: 9999, defaultValue: 0, sortable: true, width: 80 });
const linkField = (): FieldDef => ({
  kind: 'text',
  label: { zh: '跳转链接', en: 'Link' },
  max: 500,
  pattern: '^(https?://[^\\s]+|/[^\\s]*)$',
  patternMessage: { zh: '以 http(s):// 或 / 开头的地址', en: 'an address starting with http(s):// or /' },
  list: false,
});
const createdAtField = (zh = '创建时间', en = 'Created'): FieldDef => ({ kind: 'datetime', label: { zh, en }, readOnly: true, sortable: true, filter: 'range', width: 170 });

/** The mall's categories (classificationManage), a tree ordered among siblings. */
export const MarketCategory = defineResource({
  name: 'MarketCategory',
  label: { zh: '商品分类', en: 'Category' },
  table: 'market_categories',
  views: [{ frame: 'classificationManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'sortOrder', order: 'asc' },
  tree: { parentField: 'parentId', orderField: 'sortOrder' },
  fields: {
    name: { kind: 'text', label: { zh: '分类名称', en: 'Name' }, required: true, max: 30, filter: 'name', width: 200 },
    parentId: { kind: 'reference', family: 'MarketCategory', display: 'name', label: { zh: '上级分类', en: 'Parent category' }, filter: 'equals', help: { zh: '留空为一级分类', en: 'Empty = a top-level category' } },
    icon: imageUrl({ zh: '图标', en: 'Icon' }),
    sortOrder: { kind: 'number', label: { zh: '排序', en: 'Order' }, readOnly: true, width: 80 },
    enabled: enabledField(),
  },
  indexes: [['parentId', 'sortOrder']],
});

/** The mall's merchants (merchantManage): who ships the goods and gets the payment less the commission. */
export const MarketMerchant = defineResource({
  name: 'MarketMerchant',
  label: { zh: '商户', en: 'Merchant' },
  table: 'market_merchants',
  views: [{ frame: 'merchantManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '商户名称', en: 'Name' }, required: true, max: 100, unique: true, filter: 'name', sortable: true },
    contactName: { kind: 'text', label: { zh: '联系人', en: 'Contact' }, required: true, max: 50, filter: 'name' },
    contactPhone: { kind: 'phone', phoneKind: 'serviceLine', label: { zh: '联系电话', en: 'Phone' }, required: true, filter: 'digits' },
    settlementBank: { kind: 'text', label: { zh: '结算开户行', en: 'Settlement bank' }, required: true, max: 100, list: false },
    settlementAccount: { kind: 'text', label: { zh: '结算账号', en: 'Settlement account' }, required: true, max: 40, pattern: '^[0-9 -]{6,40}$', patternMessage: { zh: '银行账号', en: 'a bank account number' } },
    // The company keeps this share of each payment for the merchant's goods; the rest is posted to the merchant's account.
    commissionPercent: { kind: 'number', integer: true, min: 0, max: 100, required: true, defaultValue: 10, label: { zh: '平台佣金(%)', en: 'Commission (%)' }, width: 110 },
    enabled: enabledField(),
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
  },
  toggles: [{ field: 'enabled', button: 'update' }],
});

/** The mall's goods (goodsManage). Stock is taken by one conditional update per line (mall/orders.ts). */
export const MarketCommodity = defineResource({
  name: 'MarketCommodity',
  label: { zh: '商品', en: 'Commodity' },
  table: 'market_commodities',
  views: [{ frame: 'goodsManage' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    image: imageUrl({ zh: '主图', en: 'Image' }),
    title: { kind: 'text', label: { zh: '商品名称', en: 'Title' }, required: true, max: 100, filter: 'name', sortable: true, width: 200 },
    subtitle: { kind: 'text', label: { zh: '副标题', en: 'Subtitle' }, max: 200, list: false },
    categoryId: { kind: 'reference', family: 'MarketCategory', display: 'name', label: { zh: '分类', en: 'Category' }, required: true, filter: 'equals', width: 120 },
    merchantId: { kind: 'reference', family: 'MarketMerchant', display: 'name', label: { zh: '商户', en: 'Merchant' }, required: true, filter: 'equals', width: 140 },
    unitPrice: { kind: 'money', label: { zh: '单价', en: 'Unit price' }, required: true, min: 1, max: 100_000_000, sortable: true, width: 100 },
    stockCount: { kind: 'number', integer: true, label: { zh: '库存', en: 'Stock' }, required: true, min: 0, max: 10_000_000, defaultValue: 0, sortable: true, width: 90 },
    soldCount: { kind: 'number', label: { zh: '销量', en: 'Sold' }, readOnly: true, sortable: true, defaultValue: 0, width: 80 },
    detail: { kind: 'textarea', rich: true, label: { zh: '商品详情', en: 'Detail' }, max: 50_000, list: false },
    isEnabled: { ...enabledField(), label: { zh: '上架', en: 'On sale' }, trueLabel: { zh: '上架', en: 'On sale' }, falseLabel: { zh: '下架', en: 'Off sale' } },
    createdAt: createdAtField(),
  },
  toggles: [{ field: 'isEnabled', button: 'enable' }],
});

/** Which commodities which schools see (productReleaseList), inside a window of days. */
export const MarketCommodityRelease = defineResource({
  name: 'MarketCommodityRelease',
  label: { zh: '商品发布', en: 'Release' },
  table: 'market_commodity_releases',
  views: [{ frame: 'productReleaseList' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    title: { kind: 'text', label: { zh: '发布名称', en: 'Name' }, required: true, max: 100, filter: 'name', width: 180 },
    commodityId: { kind: 'reference', family: 'MarketCommodity', display: 'title', label: { zh: '商品', en: 'Commodity' }, required: true, filter: 'equals', width: 200 },
    ...periodFields(),
    ...audienceFields({ table: 'market_release_schools', owner: 'releaseId' }),
    sort: sortField(),
    enabled: enabledField(),
  },
  toggles: [{ field: 'enabled', button: 'update' }],
  indexes: [['commodityId']],
});

export const MARKET_AD_POSITION_OPTIONS = [
  { value: 1, zh: '首页顶部', en: 'Home, top', color: 'blue' },
  { value: 2, zh: '商城首页', en: 'Mall home', color: 'green' },
  { value: 3, zh: '我的页面', en: 'Profile page', color: 'purple' },
] as const satisfies readonly EnumOption[];

const adFields = (table: string, owner: string) =>
  ({
    image: { kind: 'image', label: { zh: '图片', en: 'Image' }, required: true, width: 80 },
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, required: true, max: 100, filter: 'name' },
    link: linkField(),
    position: { kind: 'enum', options: MARKET_AD_POSITION_OPTIONS, label: { zh: '位置', en: 'Position' }, required: true, defaultValue: 1, filter: 'equals', width: 110 },
    ...periodFields(),
    ...audienceFields({ table, owner }),
    sort: sortField(),
    enabled: enabledField(),
  }) as const;

/** The app's carousel (appCarouselChart): images at the top of the app's pages. */
export const MarketAppAd = defineResource({
  name: 'MarketAppAd',
  label: { zh: 'App轮播图', en: 'App carousel image' },
  table: 'market_app_ads',
  views: [{ frame: 'appCarouselChart' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'sort', order: 'asc' },
  fields: adFields('market_app_ad_schools', 'adId'),
  toggles: [{ field: 'enabled', button: 'enable' }],
});

export const MARKET_CAROUSEL_MALL = 1;
export const MARKET_CAROUSEL_AD = 2;

/** The mall's carousel (rotationChartManage) and its ad rotation (adverRotation): one family, two pages. */
export const MarketCarouselAd = defineResource({
  name: 'MarketCarouselAd',
  label: { zh: '轮播广告', en: 'Carousel ad' },
  table: 'market_carousel_ads',
  views: [
    { frame: 'rotationChartManage', fixed: { kind: MARKET_CAROUSEL_MALL } },
    { frame: 'adverRotation', fixed: { kind: MARKET_CAROUSEL_AD } },
  ],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'sort', order: 'asc' },
  fields: {
    kind: {
      kind: 'enum',
      options: [
        { value: MARKET_CAROUSEL_MALL, zh: '商城轮播', en: 'Mall carousel' },
        { value: MARKET_CAROUSEL_AD, zh: '广告轮播', en: 'Ad rotation' },
      ],
      label: { zh: '类型', en: 'Kind' },
      required: true,
      filter: 'equals',
      width: 100,
    },
    ...adFields('market_carousel_ad_schools', 'adId'),
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
});

/** Parents' delivery addresses (addressManage): written by the parent in the app, read and corrected by staff. */
export const MarketAddress = defineResource({
  name: 'MarketAddress',
  label: { zh: '收货地址', en: 'Address' },
  table: 'market_addresses',
  views: [{ frame: 'addressManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'consigneeName',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 120 },
    schoolId: schoolRef({ from: 'parentId' }),
    consigneeName: { kind: 'text', label: { zh: '收货人', en: 'Consignee' }, required: true, max: 50, filter: 'name' },
    consigneePhone: { kind: 'phone', phoneKind: 'mobile', label: { zh: '手机号', en: 'Mobile' }, required: true, filter: 'digits' },
    province: { kind: 'region', part: 'province', label: { zh: '省', en: 'Province' }, required: true, filter: 'equals' },
    city: { kind: 'region', part: 'city', label: { zh: '市', en: 'City' }, required: true, filter: 'equals' },
    area: { kind: 'region', part: 'area', label: { zh: '区', en: 'District' }, required: true, filter: 'equals' },
    detail: { kind: 'text', label: { zh: '详细地址', en: 'Street address' }, required: true, max: 200, filter: 'code', width: 220 },
    isDefault: { kind: 'bool', label: { zh: '默认地址', en: 'Default' }, defaultValue: false, filter: 'equals', width: 90 },
  },
  indexes: [['parentId']],
});

export const MALL_ORDER_UNPAID = 1;
export const MALL_ORDER_PAID = 2;
export const MALL_ORDER_SHIPPED = 3;
export const MALL_ORDER_RECEIVED = 4;
export const MALL_ORDER_COMPLETED = 5;
export const MALL_ORDER_CANCELLED = 6;

export const MALL_ORDER_STATE_OPTIONS = [
  { value: MALL_ORDER_UNPAID, zh: '待付款', en: 'Unpaid', color: 'gold' },
  { value: MALL_ORDER_PAID, zh: '待发货', en: 'Paid', color: 'blue' },
  { value: MALL_ORDER_SHIPPED, zh: '已发货', en: 'Shipped', color: 'orange' },
  { value: MALL_ORDER_RECEIVED, zh: '已收货', en: 'Received', color: 'cyan' },
  { value: MALL_ORDER_COMPLETED, zh: '已完成', en: 'Completed', color: 'green' },
  { value: MALL_ORDER_CANCELLED, zh: '已取消', en: 'Cancelled', color: 'default' },
] as const satisfies readonly EnumOption[];

/** An unpaid order is closed (stock, coupon and points given back) this long after it was placed. */
export const MALL_UNPAID_MINUTES = 30;
/** A received order completes by itself this many days after receipt. */
export const MALL_RECEIVED_COMPLETE_DAYS = 7;
/** 葱米 that pay one fen of an order. */
export const POINTS_PER_FEN = 1;

/** Mall orders (mallOrderManage): placed and paid by parents through the channel, shipped by staff. */
export const MarketOrder = defineResource({
  name: 'MarketOrder',
  label: { zh: '商城订单', en: 'Mall order' },
  table: 'market_orders',
  views: [{ frame: 'mallOrderManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'orderNo',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    orderNo: { kind: 'text', label: { zh: '订单号', en: 'Order no.' }, readOnly: true, unique: true, max: 40, filter: 'code', width: 190 },
    state: { kind: 'enum', options: MALL_ORDER_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, defaultValue: MALL_ORDER_UNPAID, filter: 'equals', width: 90 },
    // Staff may place an order for a parent (a phone order): no coupon or points then.
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 100 },
    schoolId: schoolRef({ from: 'parentId' }),
    items: {
      kind: 'lines',
      table: 'market_order_lines',
      label: { zh: '订单明细', en: 'Order lines' },
      required: true,
      min: 1,
      max: 20,
      list: false,
      fields: {
        commodityId: { kind: 'reference', family: 'MarketCommodity', display: 'title', label: { zh: '商品', en: 'Commodity' }, required: true },
        merchantId: { kind: 'reference', family: 'MarketMerchant', display: 'name', label: { zh: '商户', en: 'Merchant' }, readOnly: true },
        quantity: { kind: 'number', integer: true, label: { zh: '数量', en: 'Quantity' }, required: true, min: 1, max: 99 },
        unitPrice: { kind: 'money', label: { zh: '单价', en: 'Unit price' }, readOnly: true },
        amount: { kind: 'money', label: { zh: '金额', en: 'Amount' }, readOnly: true },
        // What the parent paid for the line: its amount less its share of the coupon and the points.
        paidAmount: { kind: 'money', label: { zh: '实付', en: 'Paid' }, readOnly: true },
        refundedAmount: { kind: 'money', label: { zh: '已退', en: 'Refunded' }, readOnly: true, defaultValue: 0 },
      },
      amount: { quantity: 'quantity', unitPrice: 'unitPrice', into: 'amount', total: 'totalAmount', priceFrom: { reference: 'commodityId', field: 'unitPrice' } },
      indexes: [['commodityId']],
    },
    totalAmount: { kind: 'money', label: { zh: '商品金额', en: 'Goods total' }, readOnly: true, width: 100 },
    couponDiscount: { kind: 'money', label: { zh: '优惠券抵扣', en: 'Coupon' }, readOnly: true, defaultValue: 0, list: false },
    pointsUsed: { kind: 'number', label: { zh: '使用葱米', en: 'Points used' }, readOnly: true, defaultValue: 0, list: false },
    payAmount: { kind: 'money', label: { zh: '实付金额', en: 'To pay' }, readOnly: true, width: 100 },
    couponGrantId: { kind: 'number', label: { zh: '优惠券', en: 'Coupon' }, readOnly: true, list: false },
    paymentId: { kind: 'reference', family: 'PaymentRecord', display: 'outTradeNo', label: { zh: '支付单', en: 'Payment' }, readOnly: true, list: false },
    consigneeName: { kind: 'text', label: { zh: '收货人', en: 'Consignee' }, required: true, max: 50, filter: 'name', width: 90 },
    consigneePhone: { kind: 'phone', phoneKind: 'mobile', label: { zh: '收货电话', en: 'Phone' }, required: true, filter: 'digits', width: 120 },
    deliveryAddress: { kind: 'text', label: { zh: '收货地址', en: 'Address' }, required: true, max: 300, list: false },
    carrier: { kind: 'text', label: { zh: '快递公司', en: 'Carrier' }, readOnly: true, max: 50, list: false },
    trackingNo: { kind: 'text', label: { zh: '快递单号', en: 'Tracking no.' }, readOnly: true, max: 50, filter: 'code', list: false },
    remark: { kind: 'text', label: { zh: '买家留言', en: 'Note' }, max: 200, list: false },
    createdAt: createdAtField('下单时间', 'Ordered at'),
    paidAt: { kind: 'datetime', label: { zh: '付款时间', en: 'Paid at' }, readOnly: true, list: false },
    shippedAt: { kind: 'datetime', label: { zh: '发货时间', en: 'Shipped at' }, readOnly: true, list: false },
    receivedAt: { kind: 'datetime', label: { zh: '收货时间', en: 'Received at' }, readOnly: true, list: false },
  },
  workflow: {
    field: 'state',
    initial: MALL_ORDER_UNPAID,
    // Only the note and the address change while unpaid (mall/orders.ts refuses new lines); a deleted unpaid order gives back what it took.
    editableIn: [MALL_ORDER_UNPAID],
    deletableIn: [MALL_ORDER_UNPAID, MALL_ORDER_CANCELLED],
    transitions: [
      {
        verb: 'Ship',
        from: [MALL_ORDER_PAID],
        to: MALL_ORDER_SHIPPED,
        button: 'update',
        stamps: { at: 'shippedAt' },
        label: { zh: '发货', en: 'Ship' },
        fields: {
          carrier: { kind: 'text', label: { zh: '快递公司', en: 'Carrier' }, required: true, max: 50 },
          trackingNo: { kind: 'text', label: { zh: '快递单号', en: 'Tracking no.' }, required: true, max: 50, pattern: '^[A-Za-z0-9-]{6,50}$', patternMessage: { zh: '字母、数字或-', en: 'letters, digits or -' } },
        },
      },
      {
        verb: 'Cancel',
        from: [MALL_ORDER_UNPAID],
        to: MALL_ORDER_CANCELLED,
        button: 'close',
        label: { zh: '取消订单', en: 'Cancel' },
        danger: true,
        confirm: { zh: '取消后库存、优惠券和葱米退回给家长，确定？', en: 'Stock, coupon and points go back to the parent. Cancel the order?' },
        fields: { remark: { kind: 'textarea', label: { zh: '原因', en: 'Reason' }, max: 200 } },
      },
    ],
    systemTransitions: [
      { verb: 'Pay', from: [MALL_ORDER_UNPAID], to: MALL_ORDER_PAID, label: { zh: '家长付款', en: 'Paid by the parent' } },
      { verb: 'Receive', from: [MALL_ORDER_SHIPPED], to: MALL_ORDER_RECEIVED, label: { zh: '家长确认收货', en: 'Received by the parent' } },
      { verb: 'Complete', from: [MALL_ORDER_RECEIVED], to: MALL_ORDER_COMPLETED, label: { zh: '自动完成', en: 'Completed' } },
      { verb: 'ParentCancel', from: [MALL_ORDER_UNPAID], to: MALL_ORDER_CANCELLED, label: { zh: '家长取消', en: 'Cancelled by the parent' } },
      { verb: 'Expire', from: [MALL_ORDER_UNPAID], to: MALL_ORDER_CANCELLED, label: { zh: '超时未付款关闭', en: 'Closed unpaid' } },
    ],
  },
  actions: [
    {
      verb: 'RefundLine',
      button: 'refund',
      label: { zh: '退款', en: 'Refund a line' },
      // Only what was paid can be refunded; and, like every refund, only with the refund password.
      offeredWhen: { state: [MALL_ORDER_PAID, MALL_ORDER_SHIPPED, MALL_ORDER_RECEIVED, MALL_ORDER_COMPLETED] },
      reauth: 'refundPassword',
      fields: {
        lineNo: { kind: 'number', integer: true, min: 1, max: 20, required: true, label: { zh: '明细行号', en: 'Line no.' } },
        refundAmount: { kind: 'money', min: 1, required: true, label: { zh: '退款金额', en: 'Refund amount' }, help: { zh: '不超过该行实付减已退', en: 'At most what the line paid less what was refunded' } },
        reason: { kind: 'textarea', max: 200, required: true, label: { zh: '退款原因', en: 'Reason' } },
      },
      confirm: { zh: '退款将原路退回家长，确定？', en: 'The refund goes back to the parent’s payment. Continue?' },
    },
  ],
  indexes: [['parentId', 'id'], ['state', 'createdAt']],
});

export const POINTS_ORDER_PAID = 1;
export const POINTS_ORDER_SHIPPED = 2;
export const POINTS_ORDER_CANCELLED = 3;

/** The points shop's goods (scallionRiceGoods): priced in 葱米. */
export const Commodity = defineResource({
  name: 'Commodity',
  label: { zh: '葱米商品', en: 'Points goods' },
  table: 'points_commodities',
  views: [{ frame: 'scallionRiceGoods' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    image: imageUrl({ zh: '图片', en: 'Image' }),
    title: { kind: 'text', label: { zh: '商品名称', en: 'Title' }, required: true, max: 100, filter: 'name', sortable: true, width: 200 },
    points: { kind: 'number', integer: true, label: { zh: '所需葱米', en: 'Points' }, required: true, min: 1, max: 10_000_000, sortable: true, width: 100 },
    stockCount: { kind: 'number', integer: true, label: { zh: '库存', en: 'Stock' }, required: true, min: 0, max: 10_000_000, defaultValue: 0, sortable: true, width: 90 },
    soldCount: { kind: 'number', label: { zh: '已兑换', en: 'Redeemed' }, readOnly: true, defaultValue: 0, width: 90 },
    detail: { kind: 'textarea', label: { zh: '说明', en: 'Description' }, max: 2000, list: false },
    isEnabled: { ...enabledField(), label: { zh: '上架', en: 'On sale' }, trueLabel: { zh: '上架', en: 'On sale' }, falseLabel: { zh: '下架', en: 'Off sale' } },
  },
  toggles: [{ field: 'isEnabled', button: 'enable' }],
});

/** Orders of the points shop (scallionRiceOrder): the points are taken when placed. */
export const CommodityOrder = defineResource({
  name: 'CommodityOrder',
  label: { zh: '葱米订单', en: 'Points order' },
  table: 'points_orders',
  views: [{ frame: 'scallionRiceOrder' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'orderNo',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    orderNo: { kind: 'text', label: { zh: '订单号', en: 'Order no.' }, readOnly: true, unique: true, max: 40, filter: 'code', width: 190 },
    state: {
      kind: 'enum',
      options: [
        { value: POINTS_ORDER_PAID, zh: '待发货', en: 'To ship', color: 'blue' },
        { value: POINTS_ORDER_SHIPPED, zh: '已发货', en: 'Shipped', color: 'green' },
        { value: POINTS_ORDER_CANCELLED, zh: '已取消', en: 'Cancelled', color: 'default' },
      ],
      label: { zh: '状态', en: 'State' },
      readOnly: true,
      defaultValue: POINTS_ORDER_PAID,
      filter: 'equals',
      width: 90,
    },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 100 },
    schoolId: schoolRef({ from: 'parentId' }),
    commodityId: { kind: 'reference', family: 'Commodity', display: 'title', label: { zh: '商品', en: 'Goods' }, required: true, filter: 'equals', width: 180 },
    quantity: { kind: 'number', integer: true, min: 1, max: 99, defaultValue: 1, label: { zh: '数量', en: 'Quantity' }, required: true, width: 70 },
    points: { kind: 'number', label: { zh: '葱米', en: 'Points' }, readOnly: true, width: 90 },
    consigneeName: { kind: 'text', label: { zh: '收货人', en: 'Consignee' }, required: true, max: 50, filter: 'name', width: 90 },
    consigneePhone: { kind: 'phone', phoneKind: 'mobile', label: { zh: '收货电话', en: 'Phone' }, required: true, width: 120 },
    deliveryAddress: { kind: 'text', label: { zh: '收货地址', en: 'Address' }, required: true, max: 300, list: false },
    carrier: { kind: 'text', label: { zh: '快递公司', en: 'Carrier' }, readOnly: true, max: 50, list: false },
    trackingNo: { kind: 'text', label: { zh: '快递单号', en: 'Tracking no.' }, readOnly: true, max: 50, list: false },
    createdAt: createdAtField('兑换时间', 'Redeemed at'),
  },
  workflow: {
    field: 'state',
    initial: POINTS_ORDER_PAID,
    editableIn: [POINTS_ORDER_PAID],
    deletableIn: [POINTS_ORDER_PAID, POINTS_ORDER_CANCELLED],
    transitions: [
      {
        verb: 'Ship',
        from: [POINTS_ORDER_PAID],
        to: POINTS_ORDER_SHIPPED,
        button: 'update',
        label: { zh: '发货', en: 'Ship' },
        fields: {
          carrier: { kind: 'text', label: { zh: '快递公司', en: 'Carrier' }, required: true, max: 50 },
          trackingNo: { kind: 'text', label: { zh: '快递单号', en: 'Tracking no.' }, required: true, max: 50 },
        },
      },
      {
        verb: 'Cancel',
        from: [POINTS_ORDER_PAID],
        to: POINTS_ORDER_CANCELLED,
        button: 'close',
        label: { zh: '取消', en: 'Cancel' },
        danger: true,
        confirm: { zh: '取消后葱米和库存退回，确定？', en: 'The points and the stock go back. Cancel it?' },
      },
    ],
  },
  indexes: [['parentId', 'id']],
});

export const POINTS_EARN_ORDER = 1;
export const POINTS_EARN_QUESTIONNAIRE = 2;
export const POINTS_SPEND_ORDER = 3;
export const POINTS_SPEND_POINTS_ORDER = 4;
export const POINTS_RETURN = 5;

export const POINTS_ENTRY_KIND_OPTIONS = [
  { value: POINTS_EARN_ORDER, zh: '订单完成奖励', en: 'Order completed', color: 'green' },
  { value: POINTS_EARN_QUESTIONNAIRE, zh: '问卷奖励', en: 'Questionnaire answered', color: 'green' },
  { value: POINTS_SPEND_ORDER, zh: '商城抵扣', en: 'Spent on an order', color: 'orange' },
  { value: POINTS_SPEND_POINTS_ORDER, zh: '葱米兑换', en: 'Spent in the points shop', color: 'orange' },
  { value: POINTS_RETURN, zh: '退回', en: 'Given back', color: 'blue' },
] as const satisfies readonly EnumOption[];

/** The 葱米 ledger: immutable entries per parent; a balance is their sum and never negative (mall/points.ts). */
export const PointsEntry = defineResource({
  name: 'PointsEntry',
  label: { zh: '葱米流水', en: 'Points entries' },
  table: 'points_entries',
  views: [{ frame: 'scallionRiceOrder' }],
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  log: { timeField: 'postedAt', defaultDays: 30 },
  titleField: 'reason',
  fields: {
    postedAt: { kind: 'datetime', label: { zh: '时间', en: 'Posted at' }, readOnly: true, filter: 'range' },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, readOnly: true, filter: 'equals' },
    schoolId: schoolRef({ readOnly: true, required: false }),
    kind: { kind: 'enum', options: POINTS_ENTRY_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, readOnly: true, filter: 'equals' },
    amount: { kind: 'number', label: { zh: '葱米', en: 'Points' }, readOnly: true, min: -100_000_000 },
    // What the entry is about ('MarketOrder:12', 'Questionnaire:3'): one earn per source, by a unique index.
    source: { kind: 'text', label: { zh: '来源', en: 'Source' }, readOnly: true, max: 60, filter: 'equals' },
    reason: { kind: 'text', label: { zh: '说明', en: 'Reason' }, readOnly: true, max: 200 },
  },
  indexes: [['parentId', 'postedAt']],
  uniqueIndexes: [['parentId', 'kind', 'source']],
});

export const COUPON_SCOPE_ALL = 1;
export const COUPON_SCOPE_CATEGORIES = 2;
export const COUPON_SCOPE_COMMODITIES = 3;
export const COUPON_KIND_AMOUNT = 1;
export const COUPON_KIND_DISCOUNT = 2;
export const COUPON_TARGET_ALL = 1;
export const COUPON_TARGET_SCHOOLS = 2;
export const COUPON_TARGET_GRADES = 3;
export const COUPON_TARGET_PARENTS = 4;
export const COUPON_ACTIVE = 1;
export const COUPON_DISABLED = 2;

/** Coupons (couponManage). Sent (one grant per target parent) or claimed in the app; redeemed once. */
export const Coupon = defineResource({
  name: 'Coupon',
  label: { zh: '优惠券', en: 'Coupon' },
  table: 'coupons',
  views: [{ frame: 'couponManage' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    title: { kind: 'text', label: { zh: '名称', en: 'Title' }, required: true, max: 60, filter: 'name', width: 180 },
    state: {
      kind: 'enum',
      options: [
        { value: COUPON_ACTIVE, zh: '可用', en: 'Active', color: 'green' },
        { value: COUPON_DISABLED, zh: '已停用', en: 'Disabled', color: 'default' },
      ],
      label: { zh: '状态', en: 'State' },
      readOnly: true,
      defaultValue: COUPON_ACTIVE,
      filter: 'equals',
      width: 80,
    },
    scope: {
      kind: 'enum',
      options: [
        { value: COUPON_SCOPE_ALL, zh: '全部商品', en: 'All goods' },
        { value: COUPON_SCOPE_CATEGORIES, zh: '指定分类', en: 'Chosen categories' },
        { value: COUPON_SCOPE_COMMODITIES, zh: '指定商品', en: 'Chosen goods' },
      ],
      label: { zh: '适用范围', en: 'Scope' },
      required: true,
      defaultValue: COUPON_SCOPE_ALL,
      filter: 'equals',
      width: 100,
    },
    categoryIds: {
      kind: 'reference',
      family: 'MarketCategory',
      display: 'name',
      multiple: true,
      link: { table: 'coupon_categories', owner: 'couponId', target: 'categoryId' },
      label: { zh: '适用分类', en: 'Categories' },
      list: false,
    },
    commodityIds: {
      kind: 'reference',
      family: 'MarketCommodity',
      display: 'title',
      multiple: true,
      link: { table: 'coupon_commodities', owner: 'couponId', target: 'commodityId' },
      label: { zh: '适用商品', en: 'Goods' },
      list: false,
    },
    kind: {
      kind: 'enum',
      options: [
        { value: COUPON_KIND_AMOUNT, zh: '满减', en: 'Amount off' },
        { value: COUPON_KIND_DISCOUNT, zh: '折扣', en: 'Percent off' },
      ],
      label: { zh: '类型', en: 'Kind' },
      required: true,
      defaultValue: COUPON_KIND_AMOUNT,
      filter: 'equals',
      width: 80,
    },
    amountOff: { kind: 'money', label: { zh: '减免金额', en: 'Amount off' }, min: 1, max: 100_000_00, requiredWhen: { field: 'kind', in: [COUPON_KIND_AMOUNT] }, width: 100 },
    // Percent paid, 1–99: 85 = 85 折 (15% off).
    discountPercent: { kind: 'number', integer: true, min: 1, max: 99, label: { zh: '折扣(%)', en: 'Pay (%)' }, requiredWhen: { field: 'kind', in: [COUPON_KIND_DISCOUNT] }, help: { zh: '85 即 85 折', en: '85 = pay 85%' }, width: 90 },
    threshold: { kind: 'money', label: { zh: '使用门槛', en: 'Minimum spend' }, min: 0, max: 100_000_000, defaultValue: 0, width: 100 },
    total: { kind: 'number', integer: true, label: { zh: '发行总量', en: 'Total' }, required: true, min: 1, max: 10_000_000, atLeast: { field: 'issued', message: 'mall.totalBelowIssued' }, width: 90 },
    issued: { kind: 'number', label: { zh: '已发放', en: 'Issued' }, readOnly: true, defaultValue: 0, width: 80 },
    perParentLimit: { kind: 'number', integer: true, label: { zh: '每人限领', en: 'Per parent' }, required: true, min: 1, max: 100, defaultValue: 1, width: 90 },
    ...periodFields({ endLabel: 'Until' }),
    targetKind: {
      kind: 'enum',
      options: [
        { value: COUPON_TARGET_ALL, zh: '全部家长', en: 'All parents' },
        { value: COUPON_TARGET_SCHOOLS, zh: '指定学校', en: 'Chosen schools' },
        { value: COUPON_TARGET_GRADES, zh: '指定学校的年级', en: 'Grades of chosen schools' },
        { value: COUPON_TARGET_PARENTS, zh: '指定家长', en: 'Chosen parents' },
      ],
      label: { zh: '发放对象', en: 'Targets' },
      required: true,
      defaultValue: COUPON_TARGET_ALL,
      filter: 'equals',
      width: 110,
    },
    schoolIds: {
      kind: 'reference',
      family: 'School',
      display: 'schoolName',
      multiple: true,
      link: { table: 'coupon_schools', owner: 'couponId', target: 'schoolId' },
      label: { zh: '指定学校', en: 'Schools' },
      filter: 'equals',
      list: false,
      requiredWhen: { field: 'targetKind', in: [COUPON_TARGET_SCHOOLS, COUPON_TARGET_GRADES] },
    },
    grade: { kind: 'enum', options: GRADE_OPTIONS, label: { zh: '年级', en: 'Grade' }, list: false, requiredWhen: { field: 'targetKind', in: [COUPON_TARGET_GRADES] } },
    parentIds: {
      kind: 'reference',
      family: 'Parent',
      display: 'name',
      multiple: true,
      link: { table: 'coupon_parents', owner: 'couponId', target: 'parentId' },
      label: { zh: '指定家长', en: 'Parents' },
      list: false,
      requiredWhen: { field: 'targetKind', in: [COUPON_TARGET_PARENTS] },
    },
    createdAt: createdAtField(),
  },
  actions: [
    {
      verb: 'Disable',
      button: 'enable',
      label: { zh: '停用', en: 'Disable' },
      confirm: { zh: '停用后已发放未使用的券也不能再使用，确定？', en: 'Coupons granted and not used can no longer be used either. Disable it?' },
      offeredWhen: { state: COUPON_ACTIVE },
    },
    {
      verb: 'Send',
      button: 'send',
      label: { zh: '发放', en: 'Send' },
      confirm: { zh: '向发放对象中尚未领取的家长各发一张？', en: 'Send one to each target parent who has none from this send yet?' },
      offeredWhen: { state: COUPON_ACTIVE },
    },
  ],
});

export const COUPON_GRANT_UNUSED = 1;
export const COUPON_GRANT_USED = 2;

/** The coupons parents hold (a second tab of couponManage): granted by a send or a claim, used by one order. */
export const CouponGrant = defineResource({
  name: 'CouponGrant',
  label: { zh: '领取记录', en: 'Grants' },
  table: 'coupon_grants',
  views: [{ frame: 'couponManage' }],
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  log: { timeField: 'grantedAt', defaultDays: 30 },
  titleField: 'couponId',
  fields: {
    grantedAt: { kind: 'datetime', label: { zh: '领取时间', en: 'Granted at' }, readOnly: true, filter: 'range' },
    couponId: { kind: 'reference', family: 'Coupon', display: 'title', label: { zh: '优惠券', en: 'Coupon' }, readOnly: true, filter: 'equals' },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, readOnly: true, filter: 'equals' },
    schoolId: schoolRef({ readOnly: true, required: false }),
    // The send that made it ('send:<coupon>:<n>') or 'claim:<n>': one grant per parent and key.
    grantKey: { kind: 'text', label: { zh: '发放批次', en: 'Batch' }, readOnly: true, max: 60, list: false },
    state: {
      kind: 'enum',
      options: [
        { value: COUPON_GRANT_UNUSED, zh: '未使用', en: 'Unused', color: 'blue' },
        { value: COUPON_GRANT_USED, zh: '已使用', en: 'Used', color: 'green' },
      ],
      label: { zh: '状态', en: 'State' },
      readOnly: true,
      filter: 'equals',
    },
    orderId: { kind: 'reference', family: 'MarketOrder', display: 'orderNo', label: { zh: '使用订单', en: 'Order' }, readOnly: true },
    usedAt: { kind: 'datetime', label: { zh: '使用时间', en: 'Used at' }, readOnly: true },
  },
  indexes: [['parentId', 'couponId']],
  uniqueIndexes: [['couponId', 'parentId', 'grantKey']],
});

/** Comments on received orders' goods (evaluateManage): shown or hidden by staff, who may reply. */
export const CommodityComment = defineResource({
  name: 'CommodityComment',
  label: { zh: '商品评价', en: 'Comment' },
  table: 'commodity_comments',
  views: [{ frame: 'evaluateManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'content',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    commodityId: { kind: 'reference', family: 'MarketCommodity', display: 'title', label: { zh: '商品', en: 'Commodity' }, required: true, filter: 'equals', width: 180 },
    // The order the goods were received with: its parent and school are the comment's.
    orderId: { kind: 'reference', family: 'MarketOrder', display: 'orderNo', label: { zh: '订单', en: 'Order' }, required: true, list: false },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, readOnly: true, filter: 'equals', width: 100 },
    schoolId: schoolRef({ from: 'orderId' }),
    score: {
      kind: 'enum',
      options: [1, 2, 3, 4, 5].map((value) => ({ value, zh: `${value}星`, en: `${value}★`, color: value >= 4 ? 'green' : value >= 3 ? 'gold' : 'red' })),
      label: { zh: '评分', en: 'Score' },
      required: true,
      filter: 'equals',
      width: 80,
    },
    content: { kind: 'text', label: { zh: '评价内容', en: 'Comment' }, required: true, max: 500, filter: 'code', width: 260 },
    image1: { kind: 'image', label: { zh: '图片1', en: 'Image 1' }, width: 90 },
    image2: { kind: 'image', label: { zh: '图片2', en: 'Image 2' }, list: false },
    image3: { kind: 'image', label: { zh: '图片3', en: 'Image 3' }, list: false },
    reply: { kind: 'textarea', label: { zh: '商家回复', en: 'Reply' }, max: 500, width: 200 },
    isShown: { kind: 'bool', label: { zh: '显示', en: 'Shown' }, defaultValue: true, filter: 'equals', trueLabel: { zh: '显示', en: 'Shown' }, falseLabel: { zh: '隐藏', en: 'Hidden' }, width: 80 },
    createdAt: createdAtField('评价时间', 'Commented at'),
  },
  toggles: [{ field: 'isShown', button: 'state' }],
  uniqueIndexes: [['orderId', 'commodityId']],
});

/** What a parent sends for a delivery address (the app): the address fields of MarketAddress, without the parent. */
export const mallAddressInputSchema = z.strictObject({
  consigneeName: z.string().trim().min(1).max(50),
  consigneePhone: z.string().trim().regex(/^1\d{10}$/),
  province: z.string().trim().min(1).max(30),
  city: z.string().trim().min(1).max(30),
  area: z.string().trim().min(1).max(30),
  detail: z.string().trim().min(1).max(200),
  isDefault: z.boolean().optional(),
});
export type MallAddressInput = z.infer<typeof mallAddressInputSchema>;

/** What a parent sends to place an order (the app). */
export const placeMallOrderSchema = z.strictObject({
  lines: z
    .array(z.strictObject({ commodityId: z.number().int().positive(), quantity: z.number().int().min(1).max(99) }))
    .min(1)
    .max(20),
  addressId: z.number().int().positive(),
  couponGrantId: z.number().int().positive().nullish(),
  points: z.number().int().min(0).max(100_000_000).optional(),
  remark: z.string().trim().max(200).nullish(),
});
export type PlaceMallOrderInput = z.infer<typeof placeMallOrderSchema>;

/** What a parent sends to comment on a commodity of a received order (the app). */
export const mallCommentSchema = z.strictObject({
  orderId: z.number().int().positive(),
  commodityId: z.number().int().positive(),
  score: z.number().int().min(1).max(5),
  content: z.string().trim().min(1).max(500),
  images: z.array(z.string().max(500)).max(3).optional(),
});
export type MallCommentInput = z.infer<typeof mallCommentSchema>;
