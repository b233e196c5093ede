import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PERMISSION_RETRY_MS, type NavigationGroup } from '@campus/contract';
import { useLiveTopic, useThrottled } from './use-live-topic';
import { homeApi } from '../lib/api/home';
import { useSession } from '../lib/session';
import { STORAGE_KEYS, readSessionJson, writeSessionJson } from '../lib/storage';

/** Badges are refreshed every minute while the shell is open and the live stream is lost; pushed otherwise. */
export const BADGE_REFRESH_MS = 60_000;

function isNavigationTree(value: unknown): value is NavigationGroup[] {
  return Array.isArray(value) && value.every((group) => typeof group === 'object' && group !== null && Array.isArray((group as { children?: unknown }).children));
}

/**
 * The caller's navigation tree. Only the shell passes `shouldFetch` (after MENU_FETCH_DELAY_MS);
 * other readers (permissions, the home page) share its cache. The last tree is kept in session
 * storage ("menu data") so a reload draws the menu at once, then refreshes it.
 */
export function useNavigationTree(shouldFetch = false) {
  const token = useSession()?.token ?? null;
  return useQuery({
    queryKey: ['navigationTree', token],
    queryFn: async () => {
      const tree = await homeApi.getNavigationTree();
      writeSessionJson(STORAGE_KEYS.menuData, tree);
      return tree;
    },
    enabled: shouldFetch && token !== null,
    initialData: () => readSessionJson(STORAGE_KEYS.menuData, isNavigationTree) ?? undefined,
    // The stored copy is only a first paint: stale at once, so the shell's observer asks the server.
    initialDataUpdatedAt: 0,
  });
}

/** Badge changes within this much time are read once. */
const BADGE_PUSH_COALESCE_MS = 300;

/**
 * Badge counts by badge key; failures are silent and keep the last counts (SEED-SPEC section 7).
 * Every read of them is a background call (homeApi.getBadgeCounts): neither a push nor the poll may
 * keep an unattended tab's session alive. The shell's reader reads them again on each `badges`
 * event of the live stream, and polls every minute only while the stream is lost.
 */
export function useBadgeCounts(shouldFetch = false) {
  const token = useSession()?.token ?? null;
  const queryKey = ['badgeCounts', token];
  const isEnabled = shouldFetch && token !== null;
  const queryClient = useQueryClient();
  const refresh = useThrottled(() => {
    homeApi
      .getBadgeCounts()
      .then((counts) => queryClient.setQueryData(['badgeCounts', token], counts))
      .catch(() => undefined);
  }, BADGE_PUSH_COALESCE_MS);
  useLiveTopic(isEnabled ? 'badges' : null, refresh, { poll: refresh, intervalMs: BADGE_REFRESH_MS });
  return useQuery({
    queryKey,
    queryFn: homeApi.getBadgeCounts,
    enabled: isEnabled,
    retry: false,
    staleTime: BADGE_REFRESH_MS,
  });
}

/**
 * Sign-card mode, needed by the guard (codeManageA/B) and the menu. Retried after
 * PERMISSION_RETRY_MS; when it cannot be had, the two routes stay blocked (`false`).
 */
export function useSignCardMode(): boolean | undefined {
  const token = useSession()?.token ?? null;
  const query = useQuery({
    queryKey: ['signCardMode', token],
    queryFn: homeApi.getSignCardMode,
    enabled: token !== null,
    retry: 2,
    retryDelay: PERMISSION_RETRY_MS,
    staleTime: 5 * 60_000,
  });
  if (query.isError) return false;
  return query.data;
}
