import type { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { dbWaitFigures, forgetDbContention, gatePglite, releaseDbWait, startDbWait, type DbWait } from '../../src/db/query-queue.js';

/** A stand-in for PGlite: each query ends when the test says so. */
function heldClient() {
  const pending: (() => void)[] = [];
  const call = () => new Promise<void>((resolve) => pending.push(resolve));
  const client = { query: call, exec: call, transaction: call } as unknown as PGlite;
  return {
    gate: gatePglite(client),
    /** Ends the oldest query once it has started. */
    async finishNext() {
      while (pending.length === 0) await new Promise((resolve) => setImmediate(resolve));
      pending.shift()!();
    },
  };
}

/** Runs `work` as a request would: inside its DbWait, and released at its end. */
async function asRequest(work: () => Promise<unknown>): Promise<DbWait> {
  let started!: DbWait;
  await startDbWait(async (wait) => {
    started = wait;
    await work();
  });
  const figures = dbWaitFigures(started);
  releaseDbWait(started);
  return { ...started, ...(figures ?? { waitedMs: Number.NaN, count: Number.NaN }) };
}

describe('a request\'s waits for a busy connection', () => {
  afterEach(() => forgetDbContention());

  it('are 0 without async context while nothing contends for the connection', async () => {
    forgetDbContention();
    const { gate, finishNext } = heldClient();
    const request = asRequest(() => gate.client.query('select 1'));
    await finishNext();
    const wait = await request;
    expect(wait.tracked).toBe(false);
    expect([wait.waitedMs, wait.count]).toEqual([0, 0]);
  });

  it('are not known for a request that ran without async context while a statement waited, and are counted from then on', async () => {
    forgetDbContention();
    const { gate, finishNext } = heldClient();
    const holder = gate.client.query('select 1');
    // Starts untracked; its statement queues behind the holder's.
    let untracked!: DbWait;
    const first = startDbWait(async (wait) => {
      untracked = wait;
      await gate.client.query('select 2');
    });
    expect(untracked.tracked).toBe(false);
    // The contention turned the async store on: a request starting now is tracked.
    let tracked!: DbWait;
    const second = startDbWait(async (wait) => {
      tracked = wait;
      await gate.client.query('select 3');
    });
    expect(tracked.tracked).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await finishNext();
    await holder;
    await finishNext();
    await first;
    await finishNext();
    await second;
    expect(dbWaitFigures(untracked)).toBeUndefined();
    expect(dbWaitFigures(tracked)).toMatchObject({ count: 1 });
    expect(dbWaitFigures(tracked)!.waitedMs).toBeGreaterThanOrEqual(15);
    releaseDbWait(tracked);
    releaseDbWait(tracked);

    // Once the contention is past and no request holds the store, requests start without it again.
    forgetDbContention();
    const later = asRequest(() => gate.client.query('select 4'));
    await finishNext();
    expect((await later).tracked).toBe(false);
  });
});
