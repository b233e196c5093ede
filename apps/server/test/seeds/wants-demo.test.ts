/**
 * Demo accounts have published passwords (ASVS 2.5.4): which starts seed them. main.ts seeds the demo
 * data when wantsDemo says so and otherwise creates the one admin of ADMIN_INITIAL_PASSWORD.
 */
import { describe, expect, it } from 'vitest';
import { wantsDemo } from '../../src/seeds/wants-demo.js';
import { loadEnv } from '../../src/env.js';

const POSTGRES_URL = 'postgres://campus@db.example.com:5432/campus';

describe('wantsDemo', () => {
  it('never seeds PostgreSQL unless SEED_DEMO=1, in development or production', () => {
    for (const NODE_ENV of ['development', 'production']) {
      expect(wantsDemo(loadEnv({ NODE_ENV, DATABASE_URL: POSTGRES_URL }), 'postgres')).toBe(false);
      expect(wantsDemo(loadEnv({ NODE_ENV, DATABASE_URL: POSTGRES_URL, SEED_DEMO: '0' }), 'postgres')).toBe(false);
      expect(wantsDemo(loadEnv({ NODE_ENV, DATABASE_URL: POSTGRES_URL, SEED_DEMO: '1' }), 'postgres')).toBe(true);
    }
  });

  it('never seeds the embedded database in production unless SEED_DEMO=1', () => {
    expect(wantsDemo(loadEnv({ NODE_ENV: 'production' }), 'pglite')).toBe(false);
    expect(wantsDemo(loadEnv({ NODE_ENV: 'production', SEED_DEMO: '' }), 'pglite')).toBe(false);
    expect(wantsDemo(loadEnv({ NODE_ENV: 'production', SEED_DEMO: '0' }), 'pglite')).toBe(false);
    expect(wantsDemo(loadEnv({ NODE_ENV: 'production', SEED_DEMO: '1' }), 'pglite')).toBe(true);
  });

  it('seeds the embedded database outside production (the zero-set-up trial) unless SEED_DEMO=0', () => {
    expect(wantsDemo(loadEnv({}), 'pglite')).toBe(true);
    expect(wantsDemo(loadEnv({ NODE_ENV: 'development' }), 'pglite')).toBe(true);
    expect(wantsDemo(loadEnv({ SEED_DEMO: '0' }), 'pglite')).toBe(false);
  });
});
