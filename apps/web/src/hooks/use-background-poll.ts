import { focusManager, hashKey, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

export interface BackgroundPollOptions<T> {
  /** The query whose cached answer each poll replaces. */
  queryKey: QueryKey;
  /** Asks the server as a background call (`{ background: true }`): the user did not ask for it. */
  poll: () => Promise<T>;
  /** How often; false = no polling. */
  intervalMs: number | false;
}

/**
 * Polls a query's data every `intervalMs` while the tab is visible, and writes each answer into the
 * query's cache. It stands in for TanStack's `refetchInterval`, whose fetches run the query's own
 * queryFn and so cannot be told apart from the user's: a poll sent as a user call would keep the
 * session alive for ever in an open tab (ASVS 3.3.2). A failed poll keeps the last answer; the
 * request client has already reported it (and an expired session goes to the login page).
 * @example useBackgroundPoll({ queryKey, poll: () => api.search(body, { background: true }), intervalMs: 45_000 });
 */
export function useBackgroundPoll<T>({ queryKey, poll, intervalMs }: BackgroundPollOptions<T>): void {
  const queryClient = useQueryClient();
  // The latest poll function without restarting the timer on every render.
  const pollRef = useRef(poll);
  pollRef.current = poll;
  const keyHash = hashKey(queryKey);
  const keyRef = useRef(queryKey);
  keyRef.current = queryKey;

  useEffect(() => {
    if (intervalMs === false) return;
    let isCurrent = true;
    let isPolling = false;
    const key = keyRef.current;
    const timer = setInterval(() => {
      // As refetchInterval does: no polls from a hidden tab, and never two at once.
      if (!focusManager.isFocused() || isPolling) return;
      isPolling = true;
      pollRef
        .current()
        .then((data) => {
          // An answer for filters the list has since left is dropped, not written over the new ones.
          if (isCurrent) queryClient.setQueryData(key, data);
        })
        .catch(() => undefined)
        .finally(() => {
          isPolling = false;
        });
    }, intervalMs);
    return () => {
      isCurrent = false;
      clearInterval(timer);
    };
  }, [queryClient, keyHash, intervalMs]);
}
