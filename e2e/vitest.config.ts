import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['specs/**/*.spec.ts'],
    globalSetup: ['support/global-setup.ts'],
    // A journey's steps are sequential `it`s sharing one page; each waits on what it expects to see.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll retries until the UI shows the expected state (first lazy chunks take a moment).
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // One browser journey at a time: the suite shares one server and the machine has 2 cores.
    fileParallelism: false,
    // A failed step would only make the next steps of the same journey fail confusingly.
    sequence: { concurrent: false },
  },
});
