/** The market shop's tables custom code reads by name (mall/), and the link tables its declarations name. */
import { linkTable } from './link-table.js';
import { builtFamilyTable, lineTable, schools } from './resources.js';
import { Commodity, CommodityComment, Coupon, MarketAppAd, MarketCarouselAd, MarketCommodityRelease, CommodityOrder, CouponGrant, MarketAddress, MarketCategory, MarketCommodity, MarketMerchant, MarketOrder, PointsEntry } from '@campus/contract';

export const marketCategories = builtFamilyTable(MarketCategory.name);
export const marketMerchants = builtFamilyTable(MarketMerchant.name);
export const marketCommodities = builtFamilyTable(MarketCommodity.name);
export const marketCommodityReleases = builtFamilyTable(MarketCommodityRelease.name);
export const marketAddresses = builtFamilyTable(MarketAddress.name);
export const marketOrders = builtFamilyTable(MarketOrder.name);
export const marketOrderLines = lineTable(MarketOrder, 'items');
export const pointsCommodities = builtFamilyTable(Commodity.name);
export const pointsOrders = builtFamilyTable(CommodityOrder.name);
export const pointsEntries = builtFamilyTable(PointsEntry.name);
export const coupons = builtFamilyTable(Coupon.name);
export const couponGrants = builtFamilyTable(CouponGrant.name);
export const commodityComments = builtFamilyTable(CommodityComment.name);

/** The schools a release, an app ad or a carousel ad reaches when its audience is "chosen schools". */
export const marketReleaseSchools = linkTable(MarketCommodityRelease.fields.schoolIds.link, { owner: () => marketCommodityReleases.id, target: () => schools.id });
export const marketAppAdSchools = linkTable(MarketAppAd.fields.schoolIds.link, { owner: () => builtFamilyTable(MarketAppAd.name).id, target: () => schools.id });
export const marketCarouselAdSchools = linkTable(MarketCarouselAd.fields.schoolIds.link, { owner: () => builtFamilyTable(MarketCarouselAd.name).id, target: () => schools.id });

/** A coupon's scope (categories or commodities) and its targets (schools or parents). */
export const couponCategories = linkTable(Coupon.fields.categoryIds.link, { owner: () => coupons.id, target: () => marketCategories.id });
export const couponCommodities = linkTable(Coupon.fields.commodityIds.link, { owner: () => coupons.id, target: () => marketCommodities.id });
export const couponSchools = linkTable(Coupon.fields.schoolIds.link, { owner: () => coupons.id, target: () => schools.id });
export const couponParents = linkTable(Coupon.fields.parentIds.link, { owner: () => coupons.id, target: () => builtFamilyTable('Parent').id });
