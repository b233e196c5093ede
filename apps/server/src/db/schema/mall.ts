/** The market shop's tables custom code reads by name (mall/), and the link tables its declarations name. */
import { linkTable } from './link-table.js';
import { familyTable, lineTable, schools } from './resources.js';
import { Commodity, CommodityComment, Coupon, MarketAppAd, MarketCarouselAd, MarketCommodityRelease, CommodityOrder, CouponGrant, MarketAddress, MarketCategory, MarketCommodity, MarketMerchant, MarketOrder, PointsEntry } from '@campus/contract';

export const marketCategories = familyTable(MarketCategory.name);
export const marketMerchants = familyTable(MarketMerchant.name);
export const marketCommodities = familyTable(MarketCommodity.name);
export const marketCommodityReleases = familyTable(MarketCommodityRelease.name);
export const marketAddresses = familyTable(MarketAddress.name);
export const marketOrders = familyTable(MarketOrder.name);
export const marketOrderLines = lineTable(MarketOrder, 'items');
export const pointsCommodities = familyTable(Commodity.name);
export const pointsOrders = familyTable(CommodityOrder.name);
export const pointsEntries = familyTable(PointsEntry.name);
export const coupons = familyTable(Coupon.name);
export const couponGrants = familyTable(CouponGrant.name);
export const commodityComments = familyTable(CommodityComment.name);

/** The schools a release, an app ad or a carousel ad reaches when its audience is "chosen schools". */
export const marketReleaseSchools = linkTable(MarketCommodityRelease.fields.schoolIds.link, { owner: () => marketCommodityReleases.id, target: () => schools.id });
export const marketAppAdSchools = linkTable(MarketAppAd.fields.schoolIds.link, { owner: () => familyTable(MarketAppAd.name).id, target: () => schools.id });
export const marketCarouselAdSchools = linkTable(MarketCarouselAd.fields.schoolIds.link, { owner: () => familyTable(MarketCarouselAd.name).id, target: () => schools.id });

/** A coupon's scope (categories or commodities) and its targets (schools or parents). */
export const couponCategories = linkTable(Coupon.fields.categoryIds.link, { owner: () => coupons.id, target: () => marketCategories.id });
export const couponCommodities = linkTable(Coupon.fields.commodityIds.link, { owner: () => coupons.id, target: () => marketCommodities.id });
export const couponSchools = linkTable(Coupon.fields.schoolIds.link, { owner: () => coupons.id, target: () => schools.id });
export const couponParents = linkTable(Coupon.fields.parentIds.link, { owner: () => coupons.id, target: () => familyTable('Parent').id });
