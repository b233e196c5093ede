import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * How long the statements of one request waited for a busy database connection: a request's hooks
 * start it (`startDbWait`) and the driver wrappers below add to it, through async context.
 *
 * Async context is kept only while the connection is contended. On Node 20 an enabled
 * AsyncLocalStorage turns on promise hooks for every promise of the process (up to a tenth of a
 * Search's Node CPU in bench:ceiling) to attribute waits that, with the pool not full, never happen. So the store is enabled when a
 * statement finds no free connection, stays on for a while after the last one, and is disabled once
 * that time has passed and no request that holds a store is left. A request that started without it
 * knows its figures when no statement anywhere found the connection busy while it ran (then it
 * waited for nothing: 0), and does not know them otherwise (`dbWaitFigures` answers undefined).
 */
export interface DbWait {
  /** Milliseconds its statements (or transactions, or pool checkouts) waited for a busy connection, summed. */
  waitedMs: number;
  /** How many of them found the connection busy and waited. */
  count: number;
  /** Whether the request holds the store (its waits are added as they end). */
  tracked: boolean;
  /** The process's count of contended statements when it stopped or started without the store. */
  contentionsBefore: number;
}

/** How long the store stays enabled after the last statement that found the connection busy. */
const TRACK_AFTER_CONTENTION_MS = 10_000;

const currentWait = new AsyncLocalStorage<DbWait>();
const tracking = { contentions: 0, lastContentionAt: -Infinity, trackedInFlight: 0 };

function noteContention(): void {
  tracking.contentions += 1;
  tracking.lastContentionAt = performance.now();
}

/** Runs `work` with a fresh DbWait for one request: in the async store while the connection is contended. */
export function startDbWait<T>(work: (wait: DbWait) => T): T {
  const contended = performance.now() - tracking.lastContentionAt < TRACK_AFTER_CONTENTION_MS;
  const wait: DbWait = { waitedMs: 0, count: 0, tracked: contended, contentionsBefore: tracking.contentions };
  if (!contended) {
    // No-op when already disabled; never while a request still holds its store.
    if (tracking.trackedInFlight === 0) currentWait.disable();
    return work(wait);
  }
  tracking.trackedInFlight += 1;
  return currentWait.run(wait, () => work(wait));
}

/** The request no longer holds the store (its answer has gone, or a stream left the calls in flight); idempotent. */
export function releaseDbWait(wait: DbWait): void {
  if (!wait.tracked) return;
  wait.tracked = false;
  wait.contentionsBefore = tracking.contentions;
  tracking.trackedInFlight -= 1;
}

/** Its statements' waits, or undefined when one may have waited unseen (untracked while the connection was contended). */
export function dbWaitFigures(wait: DbWait): { waitedMs: number; count: number } | undefined {
  return wait.tracked || wait.contentionsBefore === tracking.contentions ? wait : undefined;
}

/** For tests: forget past contention, as if the process had run uncontended for a while. */
export function forgetDbContention(): void {
  tracking.lastContentionAt = -Infinity;
}

/** What the load shedding reads: how many statements wait for a connection and for how long. */
export interface QueryQueue {
  /** Statements (PGlite) or pool checkouts (PostgreSQL) waiting for a connection now. */
  waiting(): number;
  /** How long the oldest of them has waited, in ms (0 when none waits). */
  oldestWaitMs(): number;
}

/** Tracks waiters in arrival order; the first entry of the map is the oldest. */
class WaitingList implements QueryQueue {
  private next = 0;
  /** Each statement's ticket: since when it waits and, when it found the connection busy, its request's store. */
  private readonly waiters = new Map<number, { since: number; store: DbWait | undefined }>();

  /** A ticket for a statement; `contended` when it found the connection busy (it will wait for another to finish). */
  enter(contended: boolean): number {
    const ticket = this.next++;
    // Read here, in the caller's context: the turn is handed over in whoever finished before it.
    this.waiters.set(ticket, { since: performance.now(), store: contended ? currentWait.getStore() : undefined });
    if (contended) noteContention();
    return ticket;
  }

  leave(ticket: number): void {
    const waiter = this.waiters.get(ticket);
    this.waiters.delete(ticket);
    // A statement served at once still waits a tick or a loop turn: that is no wait for a busy connection.
    if (waiter?.store) {
      waiter.store.waitedMs += performance.now() - waiter.since;
      waiter.store.count += 1;
    }
  }

  waiting(): number {
    return this.waiters.size;
  }

  oldestWaitMs(): number {
    for (const { since } of this.waiters.values()) return performance.now() - since;
    return 0;
  }
}

/** A turn of the event loop: its poll phase reads the sockets before the promise resolves. */
const nextLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * PGlite runs one statement or transaction at a time and queues the rest inside, out of sight. This
 * puts a FIFO of our own in front of its query, exec and transaction (the calls drizzle makes), so
 * the queue can be measured; the order and the exclusivity are the ones PGlite applies anyway.
 * Statements inside a transaction go through the transaction's own handle, not through the gate.
 *
 * Each turn starts on a new turn of the event loop. PGlite runs in this thread and answers through
 * promises, so without it one waiter's turn followed the last one's in the same microtask run: while
 * the queue was never empty the loop never reached its poll phase, and a request that had arrived
 * stayed unread in its socket — bench:orders on PGlite saw answers of 13–70 s whose own handling took
 * 10–75 ms and no wait in this queue (docs/performance.md). Read, it queues at the back like the others.
 */
export function gatePglite(client: PGlite): { client: PGlite; queue: QueryQueue } {
  const list = new WaitingList();
  let tail: Promise<unknown> = Promise.resolve();
  // Statements and transactions entered and not finished: any of them makes the next one wait.
  let active = 0;
  const gated =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const ticket = list.enter(active > 0);
      active += 1;
      const turn = tail.then(nextLoopTurn).then(() => {
        list.leave(ticket);
        return call(...args);
      });
      // The next caller waits for this one to finish, whether it succeeds or fails.
      tail = turn.catch(() => undefined).finally(() => (active -= 1));
      return turn;
    };
  const query = gated(client.query.bind(client));
  const exec = gated(client.exec.bind(client));
  const transaction = gated(client.transaction.bind(client));
  const proxy = new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'exec') return exec;
      if (property === 'transaction') return transaction;
      const value: unknown = Reflect.get(target, property, target);
      // PGlite keeps private fields: its methods must run on the real instance, not on the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { client: proxy, queue: list };
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, release: (error?: Error | boolean) => void) => void;

/**
 * Counts the pool's checkouts that wait for a free client, and for how long. pg.Pool.query checks a
 * client out through `connect(callback)` and transactions through `connect()`: both are wrapped.
 */
export function measurePool(pool: pg.Pool): QueryQueue {
  const list = new WaitingList();
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | void;
  const measured = (callback?: ConnectCallback) => {
    // The pool full and no idle client left for it once those asked before are served: it waits for a
    // release. (Opening a new connection is no wait for a busy one: the pool grows after an idle spell.)
    const ticket = list.enter(pool.totalCount >= (pool.options.max ?? 10) && pool.idleCount <= pool.waitingCount);
    if (callback) {
      return connect((error, client, release) => {
        list.leave(ticket);
        callback(error, client, release);
      });
    }
    return (connect() as Promise<pg.PoolClient>).finally(() => list.leave(ticket));
  };
  Object.assign(pool, { connect: measured });
  return list;
}
