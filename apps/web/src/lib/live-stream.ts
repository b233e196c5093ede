/**
 * The tab's one live stream (/api/Live/Stream, docs/live.md), shared by every page that listens:
 * read with fetch, so the token goes in the Authorization header (an EventSource cannot send one),
 * as a background call, so an open stream never keeps the session alive. When the stream is lost
 * it is opened again with a growing wait; meanwhile `isLive()` is false and listeners poll instead.
 */
import { BACKGROUND_REQUEST_HEADER, LIVE_PATHS, type LiveEvent, type LiveTopic } from '@campus/contract';
import { getToken, subscribeSession } from './session';

type EventListener = (event: LiveEvent) => void;

const topicListeners = new Map<LiveTopic, Set<EventListener>>();
const statusListeners = new Set<() => void>();
let isConnected = false;
let controller: AbortController | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let failures = 0;
let connectedToken: string | null = null;

/** Waits before opening the stream again after the n-th failure in a row (ms); the last one repeats. */
const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

function setConnected(next: boolean): void {
  if (isConnected === next) return;
  isConnected = next;
  for (const listener of statusListeners) listener();
}

function listenerCount(): number {
  let count = 0;
  for (const set of topicListeners.values()) count += set.size;
  return count;
}

/** Splits the stream's text into events and hands each to its topic's listeners. */
function dispatchBlock(block: string): void {
  const lines = block.split('\n');
  const name = lines.find((line) => line.startsWith('event: '))?.slice(7);
  const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
  if (!name || data === undefined) return;
  if (name === 'ready') return setConnected(true);
  if (name === 'session') return; // the next call answers 10011 and the request client logs out
  let event: LiveEvent;
  try {
    event = JSON.parse(data) as LiveEvent;
  } catch {
    return;
  }
  for (const listener of topicListeners.get(event.topic) ?? []) listener(event);
}

async function connect(): Promise<void> {
  const token = getToken();
  if (!token || listenerCount() === 0 || controller) return;
  const current = new AbortController();
  controller = current;
  connectedToken = token;
  try {
    const response = await fetch(LIVE_PATHS.stream, { headers: { Authorization: `Bearer ${token}`, [BACKGROUND_REQUEST_HEADER]: '1', Accept: 'text/event-stream' }, signal: current.signal, cache: 'no-store' });
    if (!response.ok || !response.body) throw new Error(`live stream answered ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      failures = 0;
      buffer += decoder.decode(value, { stream: true });
      let split: number;
      while ((split = buffer.indexOf('\n\n')) >= 0) {
        dispatchBlock(buffer.slice(0, split));
        buffer = buffer.slice(split + 2);
      }
    }
  } catch {
    // Lost or refused: polling stands in until it is back.
  } finally {
    if (controller === current) controller = null;
    setConnected(false);
    if (!current.signal.aborted) scheduleReconnect();
  }
}

function scheduleReconnect(): void {
  if (retryTimer || listenerCount() === 0) return;
  const delay = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)]!;
  failures += 1;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    void connect();
  }, delay);
}

function disconnect(): void {
  controller?.abort();
  controller = null;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  setConnected(false);
}

// A new login (another token) opens a new stream; a log-out closes it.
subscribeSession(() => {
  const token = getToken();
  if (token === connectedToken) return;
  disconnect();
  failures = 0;
  void connect();
});

/** Calls `listener` for each event of `topic` while subscribed; the stream is open while anyone listens. */
export function subscribeLive(topic: LiveTopic, listener: EventListener): () => void {
  let set = topicListeners.get(topic);
  if (!set) topicListeners.set(topic, (set = new Set()));
  set.add(listener);
  void connect();
  return () => {
    set.delete(listener);
    if (listenerCount() === 0) disconnect();
  };
}

/** Whether the stream is open now (false: listeners poll). */
export function isLive(): boolean {
  return isConnected;
}

export function subscribeLiveStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => void statusListeners.delete(listener);
}
