import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * How long the statements of one request waited for the database connection: a request's hooks
 * open a store (`runWithDbWait`) and the driver wrappers below add to it.
 */
export interface DbWait {
  /** Milliseconds spent waiting for the connection (PGlite's one, or a pool client), summed. */
  waitedMs: number;
  /** Statements (or transactions, or pool checkouts) that went through the queue. */
  count: number;
}

const currentWait = new AsyncLocalStorage<DbWait>();

/** Runs `work` with a fresh DbWait store the database wrappers of this module add to. */
export function runWithDbWait<T>(store: DbWait, work: () => T): T {
  return currentWait.run(store, work);
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
  private readonly since = new Map<number, number>();

  enter(): number {
    const ticket = this.next++;
    this.since.set(ticket, performance.now());
    return ticket;
  }

  leave(ticket: number): void {
    const since = this.since.get(ticket);
    this.since.delete(ticket);
    const store = currentWait.getStore();
    if (store && since !== undefined) {
      store.waitedMs += performance.now() - since;
      store.count += 1;
    }
  }

  waiting(): number {
    return this.since.size;
  }

  oldestWaitMs(): number {
    for (const since of this.since.values()) return performance.now() - since;
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
  const gated =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const ticket = list.enter();
      const turn = tail.then(nextLoopTurn).then(() => {
        list.leave(ticket);
        return call(...args);
      });
      // The next caller waits for this one to finish, whether it succeeds or fails.
      tail = turn.catch(() => undefined);
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
    const ticket = list.enter();
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
