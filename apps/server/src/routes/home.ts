import { API_PATHS, FRAMES, MENU_GROUPS, badgeCountsSchema, navigationTreeSchema, signCardModeSchema, type NavigationGroup } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countBadges } from '../platform/badges.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { getRequestGrant, type EffectiveGrant } from '../platform/permissions.js';
import { getRequestState } from '../platform/caller-state.js';
import { getSignCardMode } from '../platform/settings.js';

/** The menu the grant allows: groups in order, each with its held frames in sort order; empty groups left out. */
export function navigationTreeOf(grant: EffectiveGrant): NavigationGroup[] {
  return MENU_GROUPS.flatMap((group) => {
    const children = FRAMES.filter((frame) => frame.groupId === group.id && grant.has(frame.fixedId))
      .sort((a, b) => a.sort - b.sort)
      .map((frame) => ({
        fixedId: frame.fixedId,
        index: frame.index,
        title: frame.zh,
        titleEn: frame.en,
        sort: frame.sort,
        badge: frame.badge ?? null,
        authorised: true,
        buttons: frame.buttons.filter((button) => grant.get(frame.fixedId)!.has(button)),
      }));
    return children.length > 0 ? [{ id: group.id, key: group.key, title: group.zh, titleEn: group.en, icon: group.icon, children }] : [];
  });
}

/** The shell's calls: menu, sign-card mode, badge counts. */
export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.navigationTree,
    {
      schema: {
        tags: ['Home'],
        summary: "The caller's menu: groups and the frames it holds, with its button values per frame",
        response: { 200: envelopeSchema(navigationTreeSchema) },
      },
    },
    async (request) => ok(navigationTreeOf(await getRequestGrant(request))),
  );

  app.get(
    API_PATHS.signCardMode,
    {
      schema: {
        tags: ['Home'],
        summary: 'Sign-card mode: false hides and blocks codeManageA and codeManageB',
        response: { 200: envelopeSchema(signCardModeSchema) },
      },
    },
    async () => ok(await getSignCardMode(app.db)),
  );

  app.get(
    API_PATHS.badgeCounts,
    {
      schema: {
        tags: ['Home'],
        summary: 'Pending-item counts of the badges on frames the caller holds',
        response: { 200: envelopeSchema(badgeCountsSchema) },
      },
    },
    async (request) => {
      const { scope, grant } = await getRequestState(request);
      return ok(await countBadges({ db: app.db, user: request.user, scope }, grant, request.log));
    },
  );
};
