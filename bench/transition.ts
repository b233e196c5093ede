/**
 * What a workflow transition costs next to an Update of the same row, on an in-memory PGlite with
 * the demo seed: SQL statements per call (counted by a drizzle logger; BEGIN and COMMIT, one pair per
 * call in both, come on top) and CPU per call of this process (engine + embedded database).
 *
 *   npm run bench:transition -- --calls 200
 *
 * Issue 7: a transition costs at most one round trip more than an Update. Prints figures; asserts nothing.
 */
import { MaintenanceTicket, type TransitionDef } from '@campus/contract';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Database } from '@campus/server/src/db/client.js';
import { migrateDatabase } from '@campus/server/src/db/migrate.js';
import * as schema from '@campus/server/src/db/schema/index.js';
import { seedDefaults } from '@campus/server/src/seeds/defaults.js';
import { seedDemo } from '@campus/server/src/seeds/demo.js';
import type { AuthUser } from '@campus/server/src/platform/auth.js';
import { getVisibilityProbes } from '@campus/server/src/platform/probes.js';
import type { EngineContext } from '@campus/server/src/resources/engine/context.js';
import { updateRow } from '@campus/server/src/resources/engine/write.js';
import { runTransition } from '@campus/server/src/resources/engine/workflow.js';
import { eq, type Logger } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { parseArgs } from 'node:util';
import { BENCH_SERVICES } from './engine-context.js';

const { values: args } = parseArgs({ options: { calls: { type: 'string', default: '200' } } });
const calls = Number(args.calls);

let statements = 0;
const counting: Logger = { logQuery: () => void (statements += 1) };
const client = await PGlite.create({ extensions: { pg_trgm } });
const db = drizzle({ client, schema, logger: counting }) as unknown as Database;
await migrateDatabase({ db, kind: 'pglite' });
await seedDefaults(db);
await seedDemo(db);

const [admin] = await db.select().from(schema.users).where(eq(schema.users.loginName, 'admin'));
const user = { ...admin!, sessionId: 0 } as unknown as AuthUser;
const ctx: EngineContext = {
  db,
  user,
  scope: { kind: 'all' },
  def: MaintenanceTicket,
  view: MaintenanceTicket.views[0]!,
  buttons: new Set(['update', 'state']),
  probes: await getVisibilityProbes(db, user),
  locale: 'zh',
  ...BENCH_SERVICES,
};
const [ticket] = await db.select().from(schema.maintenanceTickets).limit(1);
const id = Number(ticket!.id);
// A transition that may repeat on one row, with a remark and no reference to check: the engine's own
// cost. Assign adds the assignee's reference check, as an Update of a reference would.
const remark: TransitionDef = { verb: 'Remark', from: [1, 2], to: 2, button: 'state', label: { zh: '备注', en: 'Remark' }, fields: {} };
const assign = MaintenanceTicket.workflow.transitions.find((t) => t.verb === 'Assign') as TransitionDef;

async function measure(name: string, call: (n: number) => Promise<unknown>) {
  await call(-1); // warm-up: prepared plans, first-use imports
  statements = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let n = 0; n < calls; n += 1) await call(n);
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const perCall = (value: number) => (value / calls).toFixed(2);
  console.log(
    `${name.padEnd(22)} statements/call ${perCall(statements).padStart(5)}   CPU ${perCall((used.user + used.system) / 1000).padStart(6)} ms/call   wall ${perCall(elapsed).padStart(6)} ms/call`,
  );
}

console.log(`MaintenanceTicket #${id}, ${calls} calls each (PGlite in memory)\n`);
await measure('Update (title)', async () => {
  const { rows: [row] } = await client.query<{ version: number }>('select version from maintenance_tickets where id = $1', [id]);
  // The version read above goes through the raw client, so the logger does not count it.
  await updateRow(ctx, { id, version: row!.version, title: `闸机故障 ${Math.random()}` });
});
await measure('Remark (transition)', (n) => runTransition(ctx, remark, { id, remark: `第 ${n} 次备注` }));
await measure('Assign (transition)', (n) => runTransition(ctx, assign, { id, assigneeId: Number(admin!.id), remark: `第 ${n} 次派单` }));
await client.close();
