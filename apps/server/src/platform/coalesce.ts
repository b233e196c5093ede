/**
 * Work that many callers want done on one thing at once (a flash sale's orders of one commodity), done
 * in batches: the first caller's batch starts at once, alone; callers that arrive while a batch of the
 * same key runs wait and then go together in the next one. A batch costs one round trip and one turn
 * on the thing's lock, however many callers it carries, so under a crowd the lock is taken once per
 * batch instead of once per caller; alone, a caller waits for nothing.
 */

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/** Coalesces calls by key: `run` gets the key and its batch's items and answers one result per item, in order. */
export function coalescing<K, T, R>(run: (key: K, items: T[]) => Promise<R[]>, maxBatch: number): (key: K, item: T) => Promise<R> {
  const queues = new Map<K, Waiting<T, R>[]>();

  async function drain(key: K, queue: Waiting<T, R>[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const results = await run(key, batch.map((waiting) => waiting.item));
        batch.forEach((waiting, index) => waiting.resolve(results[index]!));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    queues.delete(key);
  }

  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      const running = queues.get(key);
      if (running) {
        running.push({ item, resolve, reject });
        return;
      }
      const queue = [{ item, resolve, reject }];
      queues.set(key, queue);
      void drain(key, queue);
    });
}
