import { defineConfig } from 'vitest/config';

const usePostgres = Boolean(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL);

export default defineConfig({
  test: {
    // Vitest's default leaves one core idle; test files are independent (a database each), so both
    // cores of the CI machine run them.
    maxWorkers: 2,
    // React's scheduler may still run one render slice after a web test file's jsdom is torn down
    // (a response that settled after the last unmount), once every test of the file has passed:
    // react-dom then throws `window is not defined`. Only that teardown error is ignored; any other
    // unhandled error still fails the run.
    onUnhandledError(error) {
      const isTeardownRender = error.name === 'ReferenceError' && error.message === 'window is not defined' && /react-dom/.test(error.stack ?? '');
      return !isTeardownRender;
    },
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server-pglite',
          root: 'apps/server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          globalSetup: ['test/setup/pglite-template.ts'],
          // Each file builds its own app on its own database, so files need no module isolation;
          // importing the server once per worker instead of once per file halves the project's time.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(usePostgres
        ? [
            {
              test: {
                name: 'server-postgres',
                root: 'apps/server',
                include: ['test/**/*.test.ts'],
                environment: 'node',
                env: { TEST_DB: 'postgres' },
                globalSetup: ['test/setup/postgres-template.ts'],
                isolate: false,
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        extends: 'apps/web/vite.config.ts',
        // A zone twelve or thirteen hours from China's: any date taken from the browser's clock instead
        // of Shanghai's lands on the wrong day for half of every day, so such a slip fails the suite.
        test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom', env: { TZ: 'America/New_York' } },
      },
    ],
  },
});
