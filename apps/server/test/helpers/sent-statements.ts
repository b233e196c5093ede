import pg from 'pg';

/**
 * Records every round trip the pool's clients make (statements, and BEGIN / COMMIT when there are
 * any) until `stop()`: the tests that count what one call costs PostgreSQL, and bench:ceiling, which
 * replays a Search's page statement. `names` holds the name each was prepared under ('' for an unnamed
 * one) and `values` its parameters, in the same order as `sent`.
 */
export function recordSentStatements(): { sent: string[]; names: string[]; values: unknown[][]; stop(): void } {
  const sent: string[] = [];
  const names: string[] = [];
  const values: unknown[][] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text: string; name?: string; values?: unknown[] };
    sent.push(typeof config === 'string' ? config : config.text);
    names.push(typeof config === 'string' ? '' : (config.name ?? ''));
    // drizzle hands the parameters beside the config.
    values.push((typeof config === 'string' ? undefined : config.values) ?? (args[1] as unknown[] | undefined) ?? []);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return { sent, names, values, stop: () => void (pg.Client.prototype.query = query) };
}
