/**
 * The cockpit's data and its refresh, in one hook: asked on mount and polled every COCKPIT_REFRESH_MS
 * as a background call (no session kept alive by an open tab). The live stream replaces the poll here
 * and nowhere else once it lands.
 */
import { COCKPIT_PATH, COCKPIT_REFRESH_MS, type CockpitAnswer } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { useBackgroundPoll } from '../../hooks/use-background-poll';
import { http } from '../../lib/request';

const fetchCockpit = (schoolId: number | undefined, background: boolean) =>
  http.get<CockpitAnswer>(COCKPIT_PATH, schoolId === undefined ? undefined : { schoolId }, background ? { silent: true, background: true } : {});

export function useCockpit(schoolId: number | undefined) {
  const queryKey = ['cockpit', schoolId ?? null];
  const query = useQuery({ queryKey, queryFn: () => fetchCockpit(schoolId, false) });
  useBackgroundPoll({ queryKey, poll: () => fetchCockpit(schoolId, true), intervalMs: COCKPIT_REFRESH_MS });
  return query;
}
