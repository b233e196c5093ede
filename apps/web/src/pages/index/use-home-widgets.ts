import { useQuery } from '@tanstack/react-query';
import { completeHomeWidgets, type HomeWidgetSetting } from '@campus/contract';
import { liveApi } from '../../lib/api/live';
import { useSession } from '../../lib/session';
import { homeWidgetsKey } from '../live/home-widgets-query';

/** The caller's widgets in order; every widget, shown, until the saved list arrives (or when it cannot). */
export function useHomeWidgets(): HomeWidgetSetting[] {
  const token = useSession()?.token ?? null;
  const query = useQuery({ queryKey: homeWidgetsKey(token), queryFn: liveApi.getHomeWidgets, enabled: token !== null, staleTime: 60_000 });
  return query.data ?? completeHomeWidgets([]);
}
