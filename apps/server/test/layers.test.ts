import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The rule set `npm run check` runs (npm run layers), applied here to a small tree written for the test. */
const RULES_FILE = path.resolve(import.meta.dirname, '../../../.dependency-cruiser.mjs');

/** Files of a small tree laid out like the repository's, each importing what the case needs. */
const FIXTURE: Record<string, string> = {
  // Allowed: the engine imports the platform, which imports db; the entry point imports the seeds.
  'apps/server/src/db/client.ts': 'export type Executor = { run(): void };\n',
  'apps/server/src/platform/clock.ts': "import type { Executor } from '../db/client.js';\nexport const now = (_db: Executor) => 0;\n",
  'apps/server/src/resources/engine/query.ts': "import { now } from '../../platform/clock.js';\nexport const query = () => now({ run() {} });\n",
  'apps/server/src/seeds/demo.ts': "import { query } from '../resources/engine/query.js';\nexport const seedDemo = () => query();\n",
  'apps/server/src/main.ts': "import { seedDemo } from './seeds/demo.js';\nseedDemo();\n",
  // Upward, and type-only: the platform takes a type from the engine.
  'apps/server/src/platform/settings.ts': "import type { Row } from '../resources/engine/write.js';\nexport const read = (row: Row) => row;\n",
  'apps/server/src/resources/engine/write.ts': 'export type Row = Record<string, unknown>;\n',
  // Upward: a route imports the seeds.
  'apps/server/src/routes/demo.ts': "import { seedDemo } from '../seeds/demo.js';\nexport const reset = () => seedDemo();\n",
  // A circle of type-only imports inside one layer.
  'apps/server/src/resources/engine/hooks.ts': "import type { Links } from './links.js';\nexport type Hooks = { links?: Links };\n",
  'apps/server/src/resources/engine/links.ts': "import type { Hooks } from './hooks.js';\nexport type Links = { hooks?: Hooks };\n",
  // The schema's foreign-key circle is allowed while it stays among users, schools and sales teams ...
  'apps/server/src/db/schema/users.ts': "import { schools } from './resources.js';\nexport const users = { school: () => schools };\n",
  'apps/server/src/db/schema/resources.ts': "import { users } from './users.js';\nexport const schools = { creator: () => users };\n",
  // ... and not once another module joins it.
  'apps/server/src/db/schema/sales.ts': "import { grants } from './grants.js';\nexport const salesTeams = { grant: () => grants };\n",
  'apps/server/src/db/schema/grants.ts': "import { salesTeams } from './sales.js';\nexport const grants = { team: () => salesTeams };\n",
  // Web: a hook imports the shell; a component imports a hook (allowed).
  'apps/web/src/app/navigation/menu.ts': 'export const menu = [];\n',
  'apps/web/src/hooks/use-menu.ts': "import { menu } from '../app/navigation/menu';\nexport const useMenu = () => menu;\n",
  'apps/web/src/components/menu-list.tsx': "import { useMenu } from '../hooks/use-menu';\nexport const MenuList = () => useMenu().length;\n",
  // Contract: importing an app.
  'packages/contract/src/index.ts': "import type { Row } from '../../../apps/server/src/resources/engine/write.js';\nexport type Shared = Row;\n",
};

let root: string;
let violations: { rule: string; from: string; to: string }[];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'layers-'));
  for (const [file, text] of Object.entries(FIXTURE)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  const { default: layers } = (await import(pathToFileURL(RULES_FILE).href)) as { default: IConfiguration };
  const { forbidden, options } = layers;
  const result = await cruise(['apps', 'packages'], { ...options, baseDir: root, validate: true, ruleSet: { forbidden } }, {}, {});
  violations = (result.output as ICruiseResult).summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the layer rules (npm run check)', () => {
  it('refuse an upward import, type-only ones too', () => {
    expect(violations).toContainEqual({ rule: 'server-platform-imports-upward', from: 'apps/server/src/platform/settings.ts', to: 'apps/server/src/resources/engine/write.ts' });
  });

  it('let only the entry point import the seeds', () => {
    expect(violations).toContainEqual({ rule: 'server-routes-imports-upward', from: 'apps/server/src/routes/demo.ts', to: 'apps/server/src/seeds/demo.ts' });
    expect(violations.filter((v) => v.from === 'apps/server/src/main.ts')).toEqual([]);
  });

  it('refuse a web hook importing the shell', () => {
    expect(violations).toContainEqual({ rule: 'web-hooks-imports-upward', from: 'apps/web/src/hooks/use-menu.ts', to: 'apps/web/src/app/navigation/menu.ts' });
  });

  it('refuse the contract importing an app', () => {
    expect(violations).toContainEqual({ rule: 'contract-imports-an-app', from: 'packages/contract/src/index.ts', to: 'apps/server/src/resources/engine/write.ts' });
  });

  it('refuse a circle of type-only imports', () => {
    // A circle is reported once, at one of its imports.
    const circle = violations.filter((v) => v.rule === 'no-cycle' && /engine\/(hooks|links)\.ts$/.test(v.from));
    expect(circle).toHaveLength(1);
    expect([circle[0]!.from, circle[0]!.to].sort()).toEqual(['apps/server/src/resources/engine/hooks.ts', 'apps/server/src/resources/engine/links.ts']);
  });

  it("allow the schema's foreign-key circle, but not another module joining it", () => {
    expect(violations).toContainEqual({ rule: 'no-cycle-beyond-schema-keys', from: 'apps/server/src/db/schema/sales.ts', to: 'apps/server/src/db/schema/grants.ts' });
    expect(violations).toContainEqual({ rule: 'no-cycle', from: 'apps/server/src/db/schema/grants.ts', to: 'apps/server/src/db/schema/sales.ts' });
    expect(violations.filter((v) => /schema\/(users|resources)\.ts$/.test(v.from))).toEqual([]);
  });

  it('find nothing else: downward imports pass', () => {
    expect(violations).toHaveLength(7);
  });
});
