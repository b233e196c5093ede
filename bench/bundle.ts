/**
 * bench:bundle — the bytes of JavaScript (and CSS) each route of the web app makes the browser
 * download, read from Vite's manifest of a production build. Builds apps/web first unless
 * `--no-build` is given (then it reads the existing apps/web/dist).
 *
 * A route's chunks are the entry's (index.html) plus, for each part the route opens (the login page,
 * the shell, a resource page…), that part's chunk and every chunk it imports statically, followed
 * transitively: exactly what the browser fetches before the page draws. Dynamic imports are not
 * followed, except those the route is known to fire at once (the current language's messages, the
 * always-open home tab, ECharts when a report draws its chart); they are listed per route below.
 * Sizes are gzip level 9 of each file (what the server's precompressed .gz holds), brotli beside.
 * The build is made apart from the app's (in the system's temp directory) with hidden source maps,
 * so the first resource page's bytes are also told by where they come from: React, antd, the
 * contract's declarations, the console's own code.
 *
 *   npm run bench:bundle               # build, then print
 *   npm run bench:bundle -- --no-build # print for the existing build of apps/web (no breakdown)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface Route {
  name: string;
  /** Source modules (manifest keys) the route loads besides the entry. */
  parts: string[];
  /** Target for the gzipped JS in kB (issue 12), or null when the route has none of its own. */
  targetKb: number | null;
  /** The figure the target bounds: the whole route, or what it adds to another route. */
  relativeTo?: string;
}

const WEB_DIR = fileURLToPath(new URL('../apps/web/', import.meta.url));

const SHELL = ['src/app/layout/shell-route.tsx', 'src/pages/index/index-page.tsx'];
const ZH_MESSAGES = 'src/lib/i18n/packs/zh-cn.ts';
const ROUTES: Route[] = [
  { name: '/login', parts: ['src/pages/login/login-page.tsx', ZH_MESSAGES], targetKb: 150 },
  // Issue 12 asked 350 kB; antd, React and the router alone weigh ≈ 395 kB here (docs/decisions.md,
  // "The first resource page's budget is antd's floor plus the console's own code").
  { name: 'shell + schoolManage', parts: [...SHELL, 'src/resources/pages.tsx', ZH_MESSAGES], targetKb: 500 },
  {
    name: 'shell + a report page',
    parts: [...SHELL, 'src/reports/pages.tsx', 'src/reports/echarts-setup.ts', ZH_MESSAGES],
    targetKb: null,
  },
];

/**
 * What apps/web/src/app/prefetch-console.ts fetches while the login form waits for its user: the MD5 of the password, antd's
 * provider, the shell, the home page and the generic list page. Keep the two lists the same.
 */
const PREFETCHED_AT_LOGIN = ['src/lib/md5.ts', 'src/app/antd-root.tsx', 'src/app/layout/shell-route.tsx', 'src/pages/index/index-page.tsx', 'src/resources/pages.tsx'];

const { values: options } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false } } });

const DIST_DIR = options['no-build'] ? path.join(WEB_DIR, 'dist') : path.join(os.tmpdir(), 'campus-bench-bundle');
const MANIFEST_PATH = path.join(DIST_DIR, '.vite/manifest.json');
if (!options['no-build']) {
  console.log(`building apps/web (vite build) into ${DIST_DIR}…`);
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--sourcemap', 'hidden', '--outDir', DIST_DIR, '--emptyOutDir'], { cwd: WEB_DIR, stdio: 'inherit' });
}
if (!fs.existsSync(MANIFEST_PATH)) throw new Error(`No manifest at ${MANIFEST_PATH}: build apps/web first (or drop --no-build)`);
const manifest = JSON.parse(fs.readFileSync(MANIFEST_PATH, 'utf8')) as Manifest;

/** The chunk of a source module; a missing key means the route table above is out of date. */
function chunkOf(key: string): ManifestChunk {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest has no module '${key}': update ROUTES in bench/bundle.ts`);
  return chunk;
}

/** Every manifest key loaded with `keys`: each one and what it imports statically, transitively. */
function staticClosure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of chunkOf(key).imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

const sizeCache = new Map<string, { raw: number; gzip: number; brotli: number }>();
function sizesOf(file: string): { raw: number; gzip: number; brotli: number } {
  const cached = sizeCache.get(file);
  if (cached) return cached;
  const bytes = fs.readFileSync(path.join(DIST_DIR, file));
  const sizes = {
    raw: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
  sizeCache.set(file, sizes);
  return sizes;
}

interface RouteFiles {
  js: Set<string>;
  css: Set<string>;
}
function filesOf(route: Route): RouteFiles {
  const keys = staticClosure(['index.html', ...route.parts]);
  const js = new Set<string>();
  const css = new Set<string>();
  for (const key of keys) {
    const chunk = chunkOf(key);
    if (chunk.file.endsWith('.js')) js.add(chunk.file);
    chunk.css?.forEach((file) => css.add(file));
  }
  return { js, css };
}

function total(files: Iterable<string>, measure: 'raw' | 'gzip' | 'brotli'): number {
  let sum = 0;
  for (const file of files) sum += sizesOf(file)[measure];
  return sum;
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1).padStart(7);
const echartsChunk = [...staticClosure(['src/reports/echarts-setup.ts'])].map((key) => chunkOf(key).file).filter((file) => /echarts|zrender/.test(file));

console.log('\nroute                       JS gzip   target   JS br    JS raw  CSS gzip  files');
const filesByRoute = new Map<string, RouteFiles>();
for (const route of ROUTES) {
  const files = filesOf(route);
  filesByRoute.set(route.name, files);
  const gzip = total(files.js, 'gzip');
  const target = route.targetKb === null ? '      —' : `${String(route.targetKb).padStart(4)} ${gzip / 1000 <= route.targetKb ? 'ok' : 'NO'}`;
  console.log(
    `${route.name.padEnd(26)} ${kb(gzip)} kB ${target.padStart(8)} ${kb(total(files.js, 'brotli'))} ${kb(total(files.js, 'raw'))} ${kb(total(files.css, 'gzip'))}  ${files.js.size} js`,
  );
}

// After the sign-in click: what the browser still downloads before the home page and schoolManage are
// drawn, given what /login loaded (and, with the login page's prefetch, what it fetched ahead).
{
  const loginFiles = filesOf(ROUTES[0]!).js;
  const prefetched = filesOf({ name: 'prefetched', parts: PREFETCHED_AT_LOGIN, targetKb: null }).js;
  const listFiles = filesByRoute.get('shell + schoolManage')!.js;
  const left = (loaded: Set<string>) => [...listFiles].filter((file) => !loaded.has(file));
  const withoutPrefetch = left(loginFiles);
  const withPrefetch = left(new Set([...loginFiles, ...prefetched]));
  const line = (label: string, files: string[]) =>
    `${label.padEnd(44)} ${kb(total(files, 'gzip'))} kB gzip ${kb(total(files, 'raw'))} kB raw  ${String(files.length).padStart(3)} js`;
  console.log('\nafter the sign-in click (JS still to download for the home page and schoolManage):');
  console.log(line('  nothing fetched ahead', withoutPrefetch));
  console.log(line('  with what /login prefetches while it waits', withPrefetch));
}

// A report page must add ECharts only when opened: neither /login nor the shell with a resource page holds it.
const shellFiles = filesByRoute.get('shell + schoolManage')!;
const reportFiles = filesByRoute.get('shell + a report page')!;
const added = [...reportFiles.js].filter((file) => !shellFiles.js.has(file));
const echartsElsewhere = ROUTES.filter((route) => route.name !== 'shell + a report page').filter((route) =>
  echartsChunk.some((file) => filesByRoute.get(route.name)!.js.has(file)),
);
console.log(
  `\nopening a report page adds ${kb(total(added, 'gzip')).trim()} kB gzip of JS (${added.length} files), of which ECharts ${kb(total(echartsChunk, 'gzip')).trim()} kB (${echartsChunk.join(', ') || 'none found'})`,
);
console.log(
  echartsElsewhere.length === 0
    ? 'ECharts is loaded only when a report page opens: ok'
    : `ECharts is loaded by ${echartsElsewhere.map((route) => route.name).join(', ')}: NO`,
);

const largest = [...new Set([...filesByRoute.values()].flatMap((files) => [...files.js]))]
  .map((file) => ({ file, gzip: sizesOf(file).gzip }))
  .sort((a, b) => b.gzip - a.gzip)
  .slice(0, 8);
console.log('\nlargest chunks (gzip):');
for (const { file, gzip } of largest) console.log(`  ${kb(gzip)} kB  ${file}`);

/** Where a bundled module comes from, as the breakdown below groups it. */
function originOf(source: string | null): string {
  if (!source) return 'chunk glue (imports, exports)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  if (pkg === undefined) return source.includes('packages/contract/') ? 'contract (declarations, menu)' : 'console code (apps/web)';
  if (/^(react|react-dom|scheduler)$/.test(pkg)) return 'React';
  if (/^(antd|dayjs|@rc-component\/|@ant-design\/)/.test(pkg)) return 'antd (components, icons, styling)';
  if (/^(react-router|@tanstack\/)/.test(pkg)) return 'react-router, TanStack Query';
  return 'other packages';
}

/**
 * Gzipped bytes of each origin in a route's files: each file's gzip size shared out by the bytes its
 * source map gives each module (an estimate: gzip compresses each part differently).
 */
function originsOf(files: Iterable<string>): Map<string, number> {
  const origins = new Map<string, number>();
  for (const file of files) {
    const code = fs.readFileSync(path.join(DIST_DIR, file), 'utf8');
    const lines = code.split('\n');
    const mapped = new Map<string, number>();
    let total = 0;
    const mappings: { line: number; column: number; origin: string }[] = [];
    const mapPath = path.join(DIST_DIR, `${file}.map`);
    if (fs.existsSync(mapPath)) {
      const consumer = new SourceMapConsumer(JSON.parse(fs.readFileSync(mapPath, 'utf8')) as RawSourceMap);
      consumer.eachMapping((mapping) => mappings.push({ line: mapping.generatedLine, column: mapping.generatedColumn, origin: originOf(mapping.source) }));
    }
    mappings.sort((a, b) => a.line - b.line || a.column - b.column);
    mappings.forEach((mapping, index) => {
      const next = mappings[index + 1];
      const end = next?.line === mapping.line ? next.column : (lines[mapping.line - 1]?.length ?? mapping.column);
      mapped.set(mapping.origin, (mapped.get(mapping.origin) ?? 0) + end - mapping.column);
      total += end - mapping.column;
    });
    const gzip = sizesOf(file).gzip;
    if (total === 0) origins.set('chunk glue (imports, exports)', (origins.get('chunk glue (imports, exports)') ?? 0) + gzip);
    for (const [origin, bytes] of mapped) origins.set(origin, (origins.get(origin) ?? 0) + (gzip * bytes) / total);
  }
  return origins;
}

if (!options['no-build']) {
  console.log('\nwhere the gzipped JS of shell + schoolManage comes from (estimated from the source maps):');
  const origins = [...originsOf(shellFiles.js)].sort((a, b) => b[1] - a[1]);
  for (const [origin, bytes] of origins) console.log(`  ${kb(bytes)} kB  ${origin}`);
}
