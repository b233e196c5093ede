/** Live events (the contract's LIVE_TOPICS) on the messenger: one messenger topic carries them all. */
import type { LiveEvent, LiveTopic } from '@campus/contract';
import type { Messenger } from './messenger.js';

/** The messenger topic of the browsers' live events (others, such as issue 32's cache invalidation, get their own). */
export const LIVE_MESSAGE_TOPIC = 'live';

/** Publishes a live event now; `messenger` is absent where a context was built outside an app (seeds, benchmarks). */
export function publishLive(messenger: Messenger | undefined, topic: LiveTopic, schoolId: number | null, data?: unknown): void {
  if (!messenger) return;
  const event: LiveEvent = { topic, schoolId, at: Date.now(), ...(data === undefined ? {} : { data }) };
  messenger.publish(LIVE_MESSAGE_TOPIC, event);
}

/** The schools among `values` (distinct; null when a row names none), for one event each. */
export function distinctSchools(values: readonly unknown[]): (number | null)[] {
  return [...new Set(values.map((value) => (value === null || value === undefined || value === '' ? null : Number(value))))];
}

/** The messenger topic of ended sessions: an open live stream of such a session ends at once. */
export const SESSION_ENDED_TOPIC = 'session-ended';

/** Announces to every instance that these sessions ended (log-out, sessions ended from 个人信息). */
export function announceSessionsEnded(messenger: Messenger | undefined, sessionIds: readonly number[]): void {
  if (messenger && sessionIds.length > 0) messenger.publish(SESSION_ENDED_TOPIC, { sessionIds });
}
