/**
 * The server's own events, warnings and errors kept in the database (platLog): a pino destination that
 * takes the JSON lines at level warn and above, and the info lines that name a platform event
 * (`platformEvent`, see platformEvent below) or a shed request, and writes them to `platform_logs` in batches. A request never
 * waits for it — `write` only queues — and it never logs through pino itself, so a failing database
 * cannot feed its own failures back into the queue: they go to stderr, once per failed batch, and the
 * batch is dropped. Under a flood the queue keeps the newest lines up to its bound.
 */
import type { Database } from '../db/client.js';
import { platformLogs } from '../db/schema/resources.js';

/** pino's numeric levels. */
const INFO = 30;
const WARN = 40;
const ERROR = 50;
const STACK_MAX_LINES = 15;
const TEXT_MAX = 2000;

export interface PlatformLogSinkOptions {
  /** Lines written in one insert. */
  batchSize?: number;
  /** How long a line may wait for its batch. */
  flushMs?: number;
  /** Lines kept while the database is slow; beyond it the oldest are dropped. */
  maxQueued?: number;
  /** Where the sink's own failures go (never the logger it serves). */
  reportFailure?: (message: string) => void;
}

export interface PlatformLogSink {
  /** pino calls this with one serialized line; queues it and returns at once. */
  write(line: string): void;
  /** Writes everything queued; resolves when it is stored (or dropped after a failure). */
  flush(): Promise<void>;
  /** Stops the timer after a last flush. */
  close(): Promise<void>;
  /** Lines dropped so far (queue overflow or a failed insert). */
  readonly dropped: number;
}

type PlatformLogRow = typeof platformLogs.$inferInsert;

const clip = (value: unknown, max = TEXT_MAX): string | null => (typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null);

/** The first lines of a stack: where it was thrown, without the framework frames below. */
export function trimStack(stack: unknown): string | null {
  if (typeof stack !== 'string') return null;
  return clip(stack.split('\n').slice(0, STACK_MAX_LINES).join('\n'), 4000);
}

/**
 * The platform's own events, written at info level beside warnings and errors: the server started,
 * migrations applied, a job ran and what it did, a provider call failed. The sink keeps an info line
 * only when it names one, so the log stays the platform's story, not every request.
 */
export type PlatformEvent = 'start' | 'migrations' | 'job' | 'providerCall' | 'loadShed';

/** The log fields that mark a line as a platform event: `app.log.info(platformEvent('start'), 'started')`. */
export function platformEvent(event: PlatformEvent, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...fields, platformEvent: event };
}

/** What a job's run answered, in a few words for its line: its counts, or 'done'. */
export function jobResultText(result: unknown): string {
  if (result === undefined || result === null) return 'done';
  // A driver's answer to a bare statement: its row count is what it did.
  if (typeof result === 'object' && 'rowCount' in result && 'command' in result) return `${String((result as { command: unknown }).command)} ${Number((result as { rowCount: unknown }).rowCount ?? 0)} rows`;
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** Whether a run did anything worth a line: a recurring job that found nothing to do every few seconds is not news. */
export function didJobWork(result: unknown): boolean {
  if (typeof result === 'number') return result > 0;
  if (Array.isArray(result)) return result.length > 0;
  if (result && typeof result === 'object') return Object.values(result).some(didJobWork);
  return Boolean(result);
}

/** Whether an info line belongs in the platform log: a named event, or a request the load shedding refused. */
const isPlatformEvent = (entry: Record<string, unknown>) => typeof entry.platformEvent === 'string' || typeof entry.shed === 'string';

/** A shed request's line ('request completed' with `shed`) says what was refused and why. */
function shedMessage(entry: Record<string, unknown>): string {
  const req = (entry.req ?? {}) as Record<string, unknown>;
  return `load shed: ${String(req.method ?? '')} ${String(req.url ?? '')} answered ${String(entry.statusCode ?? 503)} (${String(entry.shed)})`;
}

/** The row of one pino line at warn or above or of a platform event, or null for anything else (other lines, non-JSON). */
export function platformLogRowOf(line: string): PlatformLogRow | null {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  const level = Number(entry.level);
  const isEvent = level >= INFO && level < WARN && isPlatformEvent(entry);
  if (!(level >= WARN) && !isEvent) return null;
  const err = (entry.err ?? entry.error) as Record<string, unknown> | undefined;
  const userId = Number(entry.userId);
  const statusCode = Number(entry.statusCode);
  return {
    createdAt: typeof entry.time === 'number' ? new Date(entry.time) : new Date(),
    level: isEvent ? 'info' : level >= ERROR ? 'error' : 'warn',
    message: (isEvent && typeof entry.shed === 'string' ? shedMessage(entry) : null) ?? clip(entry.msg) ?? clip(err?.message) ?? '-',
    requestId: clip(entry.reqId, 64),
    method: clip(entry.method, 10),
    route: clip(entry.route ?? entry.url, 300),
    statusCode: Number.isInteger(statusCode) ? statusCode : null,
    userId: Number.isInteger(userId) && userId > 0 ? userId : null,
    errorType: clip(err?.type, 100),
    stack: trimStack(err?.stack),
  };
}

export function createPlatformLogSink(db: Database, options: PlatformLogSinkOptions = {}): PlatformLogSink {
  const batchSize = options.batchSize ?? 100;
  const flushMs = options.flushMs ?? 1000;
  const maxQueued = options.maxQueued ?? 5000;
  const reportFailure = options.reportFailure ?? ((message: string) => process.stderr.write(`${message}\n`));
  let queue: PlatformLogRow[] = [];
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  // One insert at a time, in order: a flush asked for during another waits for it.
  let writing: Promise<void> = Promise.resolve();

  const writeBatch = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.slice(0, batchSize);
      queue = queue.slice(batch.length);
      try {
        await db.insert(platformLogs).values(batch);
      } catch (error) {
        dropped += batch.length;
        reportFailure(`platform log: ${batch.length} lines dropped, the database refused them: ${(error as Error).message}`);
      }
    }
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing = writing.then(writeBatch);
    return writing;
  };

  return {
    write(line) {
      const row = platformLogRowOf(line);
      if (!row) return;
      queue.push(row);
      if (queue.length > maxQueued) {
        dropped += queue.length - maxQueued;
        queue = queue.slice(-maxQueued);
      }
      if (queue.length >= batchSize) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), flushMs);
        // A pending batch never keeps the process alive; close() writes it on shutdown.
        timer.unref();
      }
    },
    flush,
    async close() {
      await flush();
    },
    get dropped() {
      return dropped;
    },
  };
}
