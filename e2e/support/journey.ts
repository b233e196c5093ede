import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { newSession, screenshot, type Session, type SessionOptions } from './browser';

/**
 * Declares, inside a `describe`, one journey: a fresh browser context shared by its sequential `it`
 * steps. Once a step fails the later ones are skipped (they would only fail for the same reason),
 * the page is captured as `<name>-failed.png`, and an uncaught page error fails the journey.
 */
export function journey(name: string, browser: () => Browser, options: SessionOptions = {}): () => Session {
  let session: Session | undefined;
  let failed = false;

  beforeAll(async () => {
    session = await newSession(browser(), options);
  });
  beforeEach((ctx) => {
    if (failed) ctx.skip();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || failed) return;
    failed = true;
    if (session) await screenshot(session.page, `${name}-failed`).catch(() => undefined);
    // An uncaught page error (a chunk that failed to load, a render crash) is usually the cause.
    if (session?.pageErrors.length) console.error(`uncaught errors in the page of ${name}:\n${session.pageErrors.join('\n')}`);
  });
  afterAll(async () => {
    const errors = session?.pageErrors ?? [];
    await session?.context.close();
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  return () => {
    if (!session) throw new Error('the journey has not started');
    return session;
  };
}
