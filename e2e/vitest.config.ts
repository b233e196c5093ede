import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Journeys that change or count what every other journey meets, so they run one at a time after
 * the others: mandatory-two-factor turns the company's two-factor policy on (admin cannot sign in
 * meanwhile); live counts the refund badge and the students it adds (a refund or a student another
 * journey makes would move them too) and applies a refund (refunds counts that badge); terminals
 * gives the demo gate a new secret (parent-app signs with that gate's) and expects its arrival first
 * on identifySuccess (parent-app sends one too).
 */
const ALONE = ['specs/mandatory-two-factor.spec.ts', 'specs/live.spec.ts', 'specs/terminals.spec.ts'];

/**
 * The audit's slices first: they are the longest files, and a fresh clone has no durations cached
 * (`npm ci` empties node_modules/.vite) to order by, so one left for the end would keep a worker busy
 * alone. Otherwise Vitest's order.
 */
class AuditFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => (spec.moduleId.includes('/specs/accessibility-pages-') ? 0 : 1);
    return sorted.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}

const journeys = {
  // A journey's steps are sequential `it`s sharing one page; each waits on what it expects to see.
  testTimeout: 90_000,
  hookTimeout: 120_000,
  // expect.poll retries until the UI shows the expected state (first lazy chunks take a moment).
  expect: { poll: { timeout: 15_000, interval: 100 } },
};

export default defineConfig({
  test: {
    // One server for both projects (support/global-setup.ts): the root's global setup runs once and
    // the projects read the address it provides.
    globalSetup: ['support/global-setup.ts'],
    sequence: { sequencer: AuditFirst },
    projects: [
      {
        test: {
          ...journeys,
          name: 'side-by-side',
          include: ['specs/**/*.spec.ts'],
          exclude: [...configDefaults.exclude, ...ALONE],
          // Two journeys at a time, each in its own browser, on one server: the machine has 2 cores.
          maxWorkers: 2,
          // A failed step would only make the next steps of the same journey fail confusingly.
          sequence: { groupOrder: 0, concurrent: false },
        },
      },
      {
        test: {
          ...journeys,
          name: 'alone',
          include: ALONE,
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 1, concurrent: false },
        },
      },
    ],
  },
});
