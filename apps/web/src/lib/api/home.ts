import { API_PATHS, type BadgeCounts, type HomeNotice, type NavigationGroup } from '@campus/contract';
import { http } from '../request';

export const homeApi = {
  getNavigationTree: () => http.get<NavigationGroup[]>(API_PATHS.navigationTree),
  /**
   * Silent: the seed says count-call failures are ignored. Background: no user asks for the counts
   * (the shell polls them and reads them again after writes), so they never keep a session alive.
   */
  getBadgeCounts: () => http.get<BadgeCounts>(API_PATHS.badgeCounts, undefined, { silent: true, background: true }),
  /** Notices flagged for the home page, in their window today. */
  getNotices: () => http.get<HomeNotice[]>(API_PATHS.homeNotices),
  getSignCardMode: () => http.get<boolean>(API_PATHS.signCardMode),
  /** The health probe; its answer's shape belongs to the server, so it is shown as it comes. */
  getHealth: () => http.get<unknown>(API_PATHS.health, undefined, { silent: true }),
};
