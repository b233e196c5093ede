import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { LiveEvent, LiveTopic } from '@campus/contract';
import { isLive, subscribeLive, subscribeLiveStatus } from '../lib/live-stream';

/** Whether the live stream is open (false: pages poll). */
export function useIsLive(): boolean {
  return useSyncExternalStore(subscribeLiveStatus, isLive, () => false);
}

export interface FallbackPoll {
  /** Called every `intervalMs` while the stream is lost (and the tab is visible), and once when it comes back. */
  poll: () => void;
  intervalMs: number;
}

/**
 * Listens to a live topic (docs/live.md): `onEvent` for each event of the caller's scope while the
 * stream is open; `fallback.poll` on a timer while it is not, and once on its return, so nothing
 * published while it was lost is missed. Several pages share one stream. A null topic listens to nothing.
 * @example useLiveTopic('recognitions', () => overview.refetch(), { poll: () => overview.refetch(), intervalMs: 30_000 });
 */
export function useLiveTopic(topic: LiveTopic | null, onEvent: (event: LiveEvent) => void, fallback?: FallbackPoll): boolean {
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  const pollRef = useRef(fallback?.poll);
  pollRef.current = fallback?.poll;
  const isStreamLive = useIsLive();

  useEffect(() => (topic === null ? undefined : subscribeLive(topic, (event) => onEventRef.current(event))), [topic]);

  const intervalMs = fallback?.intervalMs;
  const wasLive = useRef(isStreamLive);
  useEffect(() => {
    // Back from polling: one refresh covers what was published while the stream was down.
    if (isStreamLive && !wasLive.current) pollRef.current?.();
    wasLive.current = isStreamLive;
    if (isStreamLive || intervalMs === undefined || topic === null) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') pollRef.current?.();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [isStreamLive, intervalMs, topic]);
  return isStreamLive;
}

/**
 * Calls `run` at most once per `waitMs` for a burst of calls (the last one runs at the end of the wait):
 * a hundred recognitions in a second refetch a figure once.
 */
export function useThrottled(run: () => void, waitMs: number): () => void {
  const runRef = useRef(run);
  runRef.current = run;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const throttled = useRef(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      runRef.current();
    }, waitMs);
  });
  return throttled.current;
}
