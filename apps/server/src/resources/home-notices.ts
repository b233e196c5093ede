/**
 * The notices the console's home page lists (GET /api/Home/GetNotices): those flagged "show on home
 * page" whose window holds today (Asia/Shanghai), meant for the caller's kind of account. Any signed-in
 * user may read them: the home page is every account's.
 */
import { API_PATHS, HOME_NOTICES_LIMIT, formatBusinessDate, homeNoticesSchema, type UserType } from '@campus/contract';
import { and, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { sysNotices } from '../db/schema/index.js';
import { familyCall } from './engine/calls.js';

/** The audiences (NOTICE_AUDIENCE_OPTIONS) an account of this type reads: company staff read them all. */
export function noticeAudiencesOf(type: UserType): number[] {
  if (type === 'company' || type === 'sales') return [1, 2, 3, 4];
  if (type === 'agent' || type === 'child') return [1, 2];
  return [1, 3];
}

export const homeNoticeRoutes = familyCall(
  { tag: 'Home', verb: 'GetNotices', path: API_PATHS.homeNotices, access: 'signedIn', summary: "Notices flagged for the home page, in their window today, meant for the caller's kind of account", answer: homeNoticesSchema },
  async ({ app, request }) => {
    const today = formatBusinessDate(app.clock.now());
    const rows = await app.db
      .select({
        id: sysNotices.id,
        title: sysNotices.title,
        content: sysNotices.content,
        audience: sysNotices.audience,
        startDate: sysNotices.startDate,
        endDate: sysNotices.endDate,
      })
      .from(sysNotices)
      .where(
        and(
          eq(sysNotices.showOnHome, true),
          lte(sysNotices.startDate, today),
          gte(sysNotices.endDate, today),
          inArray(sysNotices.audience, noticeAudiencesOf(request.user.type)),
        ),
      )
      .orderBy(desc(sysNotices.startDate), desc(sysNotices.id))
      .limit(HOME_NOTICES_LIMIT);
    return rows.map((row) => ({ ...row, id: Number(row.id), audience: Number(row.audience), startDate: String(row.startDate), endDate: String(row.endDate) }));
  },
);
