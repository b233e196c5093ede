/**
 * A clean `npm install` says nothing alarming: npm 11 skips, and warns about, every dependency install
 * script that the root package.json's `allowScripts` does not name. Each package of the lock file that
 * has one must be decided there (allowed or denied; docs/decisions.md says why esbuild is allowed).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);
const readJson = (name: string) => JSON.parse(readFileSync(new URL(name, ROOT), 'utf8')) as Record<string, unknown>;

describe('install scripts', () => {
  it('decides in allowScripts on every package of the lock file that has an install script', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean; link?: boolean }> };
    const decided = Object.keys((readJson('package.json').allowScripts ?? {}) as Record<string, boolean>).map((entry) => entry.replace(/(.)@.*$/, '$1'));
    const withScripts = Object.entries(lock.packages)
      .filter(([location, entry]) => location.includes('node_modules/') && entry.hasInstallScript && !entry.link)
      .map(([location]) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect([...new Set(withScripts)].filter((name) => !decided.includes(name))).toEqual([]);
  });
});
