/**
 * The production build imports only production dependencies, so `npm ci --omit=dev` is enough to run
 * it. That the compiled server starts, migrates and answers /readyz is proven by .ci/run's
 * "production server" phase (a whole process on a fresh database: too slow for a unit test on a
 * loaded machine). Runs once, in the PGlite project.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, importedPackages, runtimePackages } from '../scripts/build.js';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

describe.skipIf(process.env.TEST_DB === 'postgres')('the production build', () => {
  const outDir = path.join(SERVER_DIR, `.dist-test-${randomBytes(4).toString('hex')}`);
  let imported: Set<string>;

  beforeAll(async () => {
    imported = importedPackages(await buildServer(outDir));
  });
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  it('compiles the server and the migration command as plain JavaScript', () => {
    for (const file of ['main.js', 'migrate.js']) expect(existsSync(path.join(outDir, file))).toBe(true);
  });

  it('imports only production dependencies, never tsx, the build tools or the TypeScript contract', () => {
    const allowed = runtimePackages();
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([]);
    for (const devOnly of ['tsx', 'esbuild', 'vitest', 'typescript', 'drizzle-kit', '@campus/contract']) expect(imported.has(devOnly)).toBe(false);
    expect(imported).toContain('fastify');
  });

  it('refuses to build into a folder whose paths would differ from src/', async () => {
    await expect(buildServer(path.join(SERVER_DIR, 'dist', 'nested'))).rejects.toThrow('directly inside apps/server');
  });
});
