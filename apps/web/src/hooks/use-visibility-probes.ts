import { useQuery } from '@tanstack/react-query';
import type { VisibilityProbes } from '@campus/contract';
import { userApi } from '../lib/api/user';
import { useSession } from '../lib/session';

/**
 * The caller's visibility probes (GET /api/User/GetVisibilityProbes), fetched once per session and
 * shared by every page. Undefined until they arrive: callers treat that as "not allowed".
 * @example const probes = useVisibilityProbes(); probes?.hideAmountColumns
 */
export function useVisibilityProbes(): VisibilityProbes | undefined {
  const token = useSession()?.token ?? null;
  const { data } = useQuery({
    queryKey: ['visibilityProbes', token],
    queryFn: userApi.getVisibilityProbes,
    enabled: token !== null,
    // Probes follow the account's type and settings, which change rarely during a session.
    staleTime: 10 * 60_000,
  });
  return data;
}
