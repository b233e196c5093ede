/** Reads a live stream (/api/Live/Stream) as the web does: fetch with the bearer token, events parsed as they come. */
import { LIVE_PATHS } from '@campus/contract';

export interface StreamEvent {
  event: string;
  data: unknown;
  receivedAt: number;
}

export interface OpenStream {
  status: number;
  events: StreamEvent[];
  /** Resolves with the first event (already received or to come) that `match` accepts; rejects after `timeoutMs`. */
  waitFor(match: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(baseUrl: string, token: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${LIVE_PATHS.stream}`, { headers: { authorization: `Bearer ${token}`, 'x-background': '1', accept: 'text/event-stream' }, signal: controller.signal });
  const events: StreamEvent[] = [];
  const waiters: { match: (event: StreamEvent) => boolean; resolve: (event: StreamEvent) => void }[] = [];
  const push = (event: StreamEvent) => {
    events.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.match(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  };
  const ended = (async () => {
    if (!response.body || response.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let split: number;
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const lines = block.split('\n');
          const name = lines.find((line) => line.startsWith('event: '))?.slice(7);
          const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
          if (name && data !== undefined) push({ event: name, data: JSON.parse(data), receivedAt: Date.now() });
          else if (block.startsWith(': heartbeat')) push({ event: 'heartbeat', data: null, receivedAt: Date.now() });
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: response.status,
    events,
    ended,
    waitFor(match, timeoutMs = 5_000) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (event: StreamEvent) => (clearTimeout(timer), resolve(event)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${events.map((event) => event.event).join(', ')}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => controller.abort(),
  };
}
