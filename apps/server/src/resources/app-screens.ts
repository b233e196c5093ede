/**
 * Rules of what the app and the terminals show: one startup page in use per app (a page's image, a
 * poster's image or video, its window and audience are the declaration's rules).
 */
import { AppStartupPage, Poster, SysNotice } from '@campus/contract';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { appStartupPages } from '../db/schema/index.js';
import { badRequest, msg } from '../platform/errors.js';
import { defineFamilyModule } from './engine/modules.js';
import { homeNoticeRoutes } from './home-notices.js';
import { screenHandlers } from '../terminals/screen-content.js';

export const appStartupPageModule = defineFamilyModule(AppStartupPage, {
  /**
   * Turning pages on turns the app's other pages off, in the write's transaction: the app asks for
   * "the page in use" and must get one answer. Two pages of one app turned on at once are refused.
   */
  async afterWrite(ctx, { ids, values }) {
    if (values.isUsing !== true) return;
    const turnedOn = await ctx.db.select({ id: appStartupPages.id, appType: appStartupPages.appType }).from(appStartupPages).where(inArray(appStartupPages.id, ids));
    const appTypes = new Set(turnedOn.map((page) => page.appType));
    if (appTypes.size < turnedOn.length) throw badRequest([{ path: 'isUsing', ...msg('startupPage.twoInUse') }], msg('startupPage.twoInUse'));
    for (const appType of appTypes) {
      await ctx.db
        .update(appStartupPages)
        .set({ isUsing: false })
        .where(and(eq(appStartupPages.appType, appType), eq(appStartupPages.isUsing, true), notInArray(appStartupPages.id, ids)));
    }
  },
});

export const posterModule = defineFamilyModule(Poster, {
  // What a terminal's screen shows: its posters and the chat texts.
  seams: { intake: { screen: screenHandlers } },
});

export const sysNoticeModule = defineFamilyModule(SysNotice, { routes: [homeNoticeRoutes] });

