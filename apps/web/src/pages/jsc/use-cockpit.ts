/**
 * The cockpit's data and its refresh, in one hook: asked on mount, read again (as a background call,
 * so an open tab keeps no session alive) when the live stream says the school's recognitions or
 * terminals moved, and polled every COCKPIT_REFRESH_MS while the stream is lost.
 */
import { COCKPIT_PATH, COCKPIT_REFRESH_MS, type CockpitAnswer, type LiveEvent } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveTopic, useThrottled } from '../../hooks/use-live-topic';
import { http } from '../../lib/request';

/** A burst of recognitions at the gates refetches the cockpit at most this often. */
const COCKPIT_LIVE_REFRESH_MS = 3_000;

const fetchCockpit = (schoolId: number | undefined, background: boolean) =>
  http.get<CockpitAnswer>(COCKPIT_PATH, schoolId === undefined ? undefined : { schoolId }, background ? { silent: true, background: true } : {});

export function useCockpit(schoolId: number | undefined) {
  const queryKey = ['cockpit', schoolId ?? null];
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey, queryFn: () => fetchCockpit(schoolId, false) });
  const refresh = useThrottled(() => {
    fetchCockpit(schoolId, true)
      .then((answer) => queryClient.setQueryData(queryKey, answer))
      .catch(() => undefined);
  }, COCKPIT_LIVE_REFRESH_MS);
  const shownSchool = query.data?.school?.id;
  const onEvent = (event: LiveEvent) => {
    if (event.schoolId === null || event.schoolId === shownSchool) refresh();
  };
  const fallback = { poll: refresh, intervalMs: COCKPIT_REFRESH_MS };
  useLiveTopic('recognitions', onEvent, fallback);
  useLiveTopic('terminals', onEvent);
  return query;
}
