import { LIVE_PATHS, type HomeWidgetSetting, type Overview } from '@campus/contract';
import { http } from '../request';

export const liveApi = {
  /** Background: a refresh on a pushed event or a poll, never the user's own act. */
  getOverview: (options: { background?: boolean } = {}) => http.get<Overview>(LIVE_PATHS.overview, undefined, { background: options.background }),
  getHomeWidgets: () => http.get<HomeWidgetSetting[]>(LIVE_PATHS.homeWidgets),
  saveHomeWidgets: (widgets: HomeWidgetSetting[]) => http.post<HomeWidgetSetting[]>(LIVE_PATHS.saveHomeWidgets, { widgets }),
};
