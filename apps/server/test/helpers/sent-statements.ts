import pg from 'pg';

/**
 * Records every round trip the pool's clients make (statements, and BEGIN / COMMIT when there are
 * any) until `stop()`: the tests that count what one call costs PostgreSQL.
 */
export function recordSentStatements(): { sent: string[]; stop(): void } {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = args[0] as string | { text: string };
    sent.push(typeof text === 'string' ? text : text.text);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return { sent, stop: () => void (pg.Client.prototype.query = query) };
}
