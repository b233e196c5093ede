/**
 * Compiles the server for production: src/main.ts (the server) and src/migrate-cli.ts (`npm run
 * migrate`) bundled by esbuild into dist/ as plain ES modules for Node, with source maps.
 *
 * The workspace package @campus/contract is TypeScript source, which Node does not run: it is bundled
 * in. Every other package stays an import resolved from node_modules at run time, and must be a
 * production dependency of the server or the contract (checked here), so `npm ci --omit=dev` is enough
 * to run the result. The bundles sit one folder below apps/server, as src/env.ts does, so the paths
 * taken from SERVER_ROOT (drizzle/, the web build) stay the same.
 */
import { build, type Metafile, type Plugin } from 'esbuild';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const CONTRACT_DIR = path.resolve(SERVER_DIR, '../../packages/contract');
const WORKSPACE_PREFIX = '@campus/';

interface PackageJson {
  dependencies?: Record<string, string>;
}
const readPackage = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;

/** The packages the compiled server may import at run time: the production dependencies. */
export function runtimePackages(): Set<string> {
  const names = [SERVER_DIR, CONTRACT_DIR].flatMap((dir) => Object.keys(readPackage(dir).dependencies ?? {}));
  return new Set(names.filter((name) => !name.startsWith(WORKSPACE_PREFIX)));
}

/** `pg/lib/x` → `pg`, `@scope/pkg/x` → `@scope/pkg`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Bare imports stay imports, except the workspace's own TypeScript packages. */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith(WORKSPACE_PREFIX)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** The packages the bundles import, from esbuild's metafile (node: built-ins left out). */
export function importedPackages(metafile: Metafile): Set<string> {
  const builtins = new Set(builtinModules);
  const imported = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
  return new Set(imported.filter((p) => !p.startsWith('node:') && !builtins.has(p)).map(packageNameOf));
}

/** Builds into `outDir` (a folder directly inside apps/server); answers the metafile. */
export async function buildServer(outDir = path.join(SERVER_DIR, 'dist')): Promise<Metafile> {
  if (path.dirname(path.resolve(outDir)) !== path.resolve(SERVER_DIR)) throw new Error(`${outDir} must be a folder directly inside apps/server`);
  fs.rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: SERVER_DIR,
    entryPoints: { main: 'src/main.ts', migrate: 'src/migrate-cli.ts' },
    outdir: outDir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  const allowed = runtimePackages();
  const undeclared = [...importedPackages(result.metafile)].filter((name) => !allowed.has(name));
  if (undeclared.length > 0) {
    throw new Error(`the compiled server imports ${undeclared.join(', ')}, not production dependencies of apps/server or packages/contract: npm ci --omit=dev would leave them out`);
  }
  return result.metafile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServer();
  console.log(`server compiled to apps/server/dist in ${Date.now() - started} ms`);
}
