import { z } from 'zod';
import { BADGE_KEYS } from '../menu.js';

export const navigationFrameSchema = z.object({
  fixedId: z.number(),
  index: z.string(),
  title: z.string(),
  titleEn: z.string(),
  sort: z.number(),
  badge: z.enum(BADGE_KEYS).nullable(),
  authorised: z.boolean(),
  /** Button permission values the caller holds on this frame. */
  buttons: z.array(z.string()),
});
export type NavigationFrame = z.infer<typeof navigationFrameSchema>;

export const navigationGroupSchema = z.object({
  id: z.number(),
  key: z.string(),
  title: z.string(),
  titleEn: z.string(),
  icon: z.string(),
  children: z.array(navigationFrameSchema),
});
export type NavigationGroup = z.infer<typeof navigationGroupSchema>;

export const navigationTreeSchema = z.array(navigationGroupSchema);

/** Counts of the badges the caller can see; keys it cannot see (or whose counter failed) are absent. */
export const badgeCountsSchema = z.partialRecord(z.enum(BADGE_KEYS), z.number());
export type BadgeCounts = z.infer<typeof badgeCountsSchema>;

export const signCardModeSchema = z.boolean();

/** A notice flagged for the console's home page (SysNotice with showOnHome), as the home page lists it. */
export const homeNoticeSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  audience: z.number().int(),
  startDate: z.string(),
  endDate: z.string(),
});
export type HomeNotice = z.infer<typeof homeNoticeSchema>;
export const homeNoticesSchema = z.array(homeNoticeSchema);
