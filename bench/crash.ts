/**
 * Crash safety: starts the real server (apps/server/src/main.ts) as a child process, has writers add
 * students through the API (remembering every id the server acknowledged with code 200), kills the
 * server with SIGKILL in the middle of that load, starts it again on the same database, and checks
 * that the database opens and every acknowledged write is there. Prints, per database: writes
 * acknowledged, found, lost, rows written but not acknowledged (in flight at the kill: allowed),
 * and the restart time. Exits 1 when any acknowledged write is lost or the server does not come back.
 *
 *   npm run bench:crash                       # PGlite in a fresh directory under /tmp
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:crash   # PGlite, then PostgreSQL
 *
 * Options: --db pglite,postgres (default: pglite, and postgres when DATABASE_URL is set), --seconds 5
 * (write load before the kill), --writers 8, --rounds 1 (kill/restart cycles per database). On
 * PostgreSQL a database campus_crash_<random> is created next to DATABASE_URL's and dropped after.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loginAs, type Envelope } from './bench-server.js';
import { killHard, scratchDatabase, startServer, stop, type Started } from './main-server.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    writers: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '1' },
  },
});
const SECONDS = Number(args.seconds);
const WRITERS = Number(args.writers);
const ROUNDS = Number(args.rounds);
const kinds = (args.db ?? (process.env.DATABASE_URL ? 'pglite,postgres' : 'pglite')).split(',').map((kind) => kind.trim());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const post = async <T>(base: string, token: string, url: string, body: unknown) => {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
};

interface WriteLoad {
  acknowledged: Map<number, string>;
  failed: number;
}

/** Writers adding students until `stopAt` or until the server goes away; every 200 is remembered. */
async function writeLoad(base: string, token: string, schoolId: number, prefix: string, stopAt: number): Promise<WriteLoad> {
  const load: WriteLoad = { acknowledged: new Map(), failed: 0 };
  let sequence = 0;
  const writer = async () => {
    while (performance.now() < stopAt) {
      const name = `${prefix}${sequence++}`;
      try {
        const answer = await post<{ id: number }>(base, token, '/api/Student/Add', { schoolId, name });
        if (answer.status === 200 && answer.body.code === 200) load.acknowledged.set(answer.body.data.id, name);
        else load.failed += 1;
      } catch {
        // The connection died with the server: this write was never acknowledged.
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return load;
}

/** Every student whose name starts with `prefix`, read back through Search page by page. */
async function readBack(base: string, token: string, schoolId: number, prefix: string): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  for (let pageIndex = 1; ; pageIndex += 1) {
    const answer = await post<{ items: { id: number; name: string }[] }>(base, token, '/api/Student/Search', { schoolId, name: prefix, pageIndex, pageSize: 200 });
    if (answer.body.code !== 200) throw new Error(`Search answered ${answer.status}: ${answer.body.message}`);
    for (const item of answer.body.data.items) found.set(item.id, item.name);
    if (answer.body.data.items.length < 200) return found;
  }
}

interface Round {
  acknowledged: number;
  found: number;
  lost: number;
  unacknowledged: number;
  restartMs: number;
}

async function crashRounds(kind: string): Promise<Round[]> {
  const { env, cleanUp } = await scratchDatabase(kind, 'crash');
  const rounds: Round[] = [];
  let server: Started | undefined;
  try {
    server = await startServer(env);
    console.log(`${kind}: first start (migrations, seed) ${(server.startMs / 1000).toFixed(1)} s`);
    for (let round = 1; round <= ROUNDS; round += 1) {
      let token = await loginAs(server.base, 'admin');
      const schools = (await (await fetch(`${server.base}/api/School/Options`, { headers: { authorization: `Bearer ${token}` } })).json()) as Envelope<{ value: number }[]>;
      const schoolId = Number(schools.data[0]!.value);
      const prefix = `crash${round}-${randomBytes(3).toString('hex')}-`;
      // The kill falls at a random moment of the second half of the load, never at its end.
      const killAt = performance.now() + SECONDS * 1000 * (0.5 + Math.random() * 0.5);
      const loading = writeLoad(server.base, token, schoolId, prefix, performance.now() + SECONDS * 1000 + 60_000);
      await sleep(killAt - performance.now());
      await killHard(server.child);
      const load = await loading;

      server = await startServer(env);
      token = await loginAs(server.base, 'admin');
      const found = await readBack(server.base, token, schoolId, prefix);
      const lost = [...load.acknowledged.keys()].filter((id) => found.get(id) !== load.acknowledged.get(id));
      const result = {
        acknowledged: load.acknowledged.size,
        found: found.size,
        lost: lost.length,
        unacknowledged: [...found.keys()].filter((id) => !load.acknowledged.has(id)).length,
        restartMs: server.startMs,
      };
      rounds.push(result);
      console.log(
        `${kind} round ${round}: ${result.acknowledged} writes acknowledged, ${result.found} found, ${result.lost} lost` +
          ` (${result.unacknowledged} written but not acknowledged), restart ${(result.restartMs / 1000).toFixed(1)} s` +
          (lost.length > 0 ? `; lost ids: ${lost.slice(0, 20).join(', ')}` : ''),
      );
    }
  } finally {
    if (server) await stop(server.child);
    await cleanUp();
  }
  return rounds;
}

let failed = false;
for (const kind of kinds) {
  try {
    const rounds = await crashRounds(kind);
    if (rounds.some((round) => round.lost > 0)) failed = true;
  } catch (error) {
    console.error(`${kind}: ${(error as Error).message}`);
    failed = true;
  }
}
console.log(failed ? 'crash safety: FAILED' : 'crash safety: every acknowledged write survived');
process.exitCode = failed ? 1 : 0;
