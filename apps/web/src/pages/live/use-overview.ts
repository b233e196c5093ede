import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveTopic, useThrottled } from '../../hooks/use-live-topic';
import { liveApi } from '../../lib/api/live';
import { useSession } from '../../lib/session';

/** A burst of recognitions refetches the figures at most this often. */
const OVERVIEW_REFRESH_MS = 2_000;
/** How often the figures are polled while the live stream is lost. */
const OVERVIEW_POLL_MS = 30_000;

/**
 * The Overview of the caller's scope, read again (as a background call) when the live stream says a
 * figure moved, and polled while the stream is lost. Answers the query and whether the stream is live.
 */
export function useOverview() {
  const token = useSession()?.token ?? null;
  const queryKey = ['overview', token];
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey, queryFn: () => liveApi.getOverview(), enabled: token !== null });
  const refresh = useThrottled(() => {
    liveApi
      .getOverview({ background: true })
      .then((overview) => queryClient.setQueryData(['overview', token], overview))
      .catch(() => undefined);
  }, OVERVIEW_REFRESH_MS);
  const isLive = useLiveTopic(token ? 'overview' : null, refresh, { poll: refresh, intervalMs: OVERVIEW_POLL_MS });
  return { ...query, isLive };
}
