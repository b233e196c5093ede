// @ts-check
/**
 * The layers of the server and the web, lowest first: a file may import its own layer and the layers
 * below it, never one above. Type-only imports count (tsPreCompilationDeps), and so do dynamic
 * imports. Run by `npm run check` (`npm run layers`); docs/decisions.md says why the map is this one.
 * The benchmarks and the browser journeys sit above everything and are checked for circles only.
 * Tests and test helpers are left out: a test may import whatever it exercises.
 */

/** @type {[string, string][]} the server, apps/server/src */
const SERVER_LAYERS = [
  ['env', '^apps/server/src/env\\.ts$'],
  ['db', '^apps/server/src/db/'],
  ['platform', '^apps/server/src/platform/'],
  ['engine', '^apps/server/src/resources/engine/'],
  // The parent's side (safe-campus service, notices, push): payments and the intake call it.
  ['parents', '^apps/server/src/parents/'],
  ['developers', '^apps/server/src/developers/'],
  ['finance', '^apps/server/src/finance/'],
  ['terminals', '^apps/server/src/terminals/'],
  // The family modules: resources/ outside the engine. They call terminals, never the reverse.
  ['families', '^apps/server/src/resources/(?!engine/)'],
  ['badges', '^apps/server/src/badges/'],
  ['reports', '^apps/server/src/reports/'],
  ['routes', '^apps/server/src/routes/'],
  // The parent app's channel: its own sessions, over the families, finance and the parents' service.
  ['app-channel', '^apps/server/src/app-channel/'],
  ['app', '^apps/server/src/(app\\.ts$|plugins/|types/)'],
  // Seeds may use every layer to write the demo; only the entry point (and tests) import them.
  ['seeds', '^apps/server/src/seeds/'],
  ['entry', '^apps/server/src/(main|migrate-cli)\\.ts$'],
];

/** @type {[string, string][]} the web, apps/web/src */
const WEB_LAYERS = [
  ['lib', '^apps/web/src/lib/'],
  ['hooks', '^apps/web/src/hooks/'],
  ['components', '^apps/web/src/components/'],
  // Resource pages and report pages share parts both ways (filter bar, chart): one layer, no cycles.
  ['features', '^apps/web/src/(resources|reports)/'],
  ['pages', '^apps/web/src/pages/'],
  ['app', '^apps/web/src/app/'],
  ['entry', '^apps/web/src/main\\.tsx$'],
];

/**
 * The one cycle allowed: the schema's foreign keys. A user belongs to a school and a sales team, and
 * a school and a sales team name users (its seller and agent; the leader), so users.ts, resources.ts
 * (schools) and sales.ts import each other; drizzle resolves such references lazily. Everything else
 * that needs all three (family-tables.ts, the log tables) sits beside the circle, not in it.
 */
export const SCHEMA_FOREIGN_KEY_CYCLE = '^apps/server/src/db/schema/(users|resources|sales)\\.ts$';

/** @param {string} side @param {[string, string][]} layers @returns {import('dependency-cruiser').IForbiddenRuleType[]} */
function upwardRules(side, layers) {
  return layers.slice(0, -1).map(([name, path], i) => ({
    name: `${side}-${name}-imports-upward`,
    comment: `${side} ${name} may import only ${layers.slice(0, i).map(([below]) => below).join(', ') || 'the contract and packages'} (and itself); it imports ${layers.slice(i + 1).map(([above]) => above).join(', ')} here`,
    severity: 'error',
    from: { path },
    to: { path: layers.slice(i + 1).map(([, above]) => above) },
  }));
}

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...upwardRules('server', SERVER_LAYERS),
    ...upwardRules('web', WEB_LAYERS),
    {
      name: 'contract-imports-an-app',
      comment: 'the contract is shared by the server and the web: it imports neither',
      severity: 'error',
      from: { path: '^packages/contract/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-import-each-other',
      comment: 'the server and the web share code only through the contract',
      severity: 'error',
      from: { path: '^apps/(server|web)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'no-cycle',
      comment: 'modules import each other in a circle: move what both need below both',
      severity: 'error',
      from: { pathNot: SCHEMA_FOREIGN_KEY_CYCLE },
      to: { circular: true },
    },
    {
      name: 'no-cycle-beyond-schema-keys',
      comment: 'the schema foreign-key circle (users, schools, sales teams) has taken in another module',
      severity: 'error',
      from: { path: SCHEMA_FOREIGN_KEY_CYCLE },
      to: { circular: true, viaSomeNot: SCHEMA_FOREIGN_KEY_CYCLE },
    },
  ],
  options: {
    includeOnly: '^(packages/contract/src|apps/server/src|apps/web/src|bench|e2e)/',
    exclude: { path: '\\.test\\.tsx?$|^apps/web/src/test/|\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      // The server imports its .ts files by their .js names (NodeNext): dependency-cruiser falls back
      // from a missing .js to the .ts beside it. The web names no extension.
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
    },
  },
};
