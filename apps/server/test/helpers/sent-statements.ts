import pg from 'pg';

/**
 * Records every round trip the pool's clients make (statements, and BEGIN / COMMIT when there are
 * any) until `stop()`: the tests that count what one call costs PostgreSQL. `names` holds the name
 * each was prepared under ('' for an unnamed one), in the same order.
 */
export function recordSentStatements(): { sent: string[]; names: string[]; stop(): void } {
  const sent: string[] = [];
  const names: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = args[0] as string | { text: string; name?: string };
    sent.push(typeof text === 'string' ? text : text.text);
    names.push(typeof text === 'string' ? '' : (text.name ?? ''));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return { sent, names, stop: () => void (pg.Client.prototype.query = query) };
}
