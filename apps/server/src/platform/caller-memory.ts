/**
 * Sessions, grants, scopes and probes of callers kept in memory on every instance (issue 32), so an
 * authenticated call sends PostgreSQL nothing of its own: a Search is its page statement alone.
 *
 * What is kept is dropped when the database says it changed. The triggers of migrations 0032 and
 * 0053 notify the messenger's channel whenever the caller-state version moves (grants, the settings a
 * state reads, school owners, teams, accounts) and whenever sessions are deleted; every instance hears
 * it once the writing transaction commits, a few milliseconds later. A console call that may have
 * written drops this instance's memory as it answers, so its own next call never waits for the echo.
 * While the listening connection is down nothing is kept (a lost notice is never waited for), and a
 * reconnection starts empty. The messenger hears the database on PostgreSQL, with or without Redis;
 * under PGlite (one process, no notices) every call reads its session as before.
 *
 * The parent app's sessions (app-channel/sessions.ts) are kept on a shelf of their own by the same
 * rules, dropped with the rest; migration 0063 notifies when a parent, its links or its sessions change.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import type { Env } from '../env.js';
import { SESSION_ENDED_TOPIC } from './live-events.js';
import type { Messenger } from './messenger.js';
import { checkSession, findSession, hashToken, touchSession, type FoundSession, type SessionLimits, type SessionLookup } from './sessions.js';

/** The topic the caller-state trigger notifies (migration 0053). */
export const CALLER_STATE_TOPIC = 'caller-state';

/** The topic the parent app's session triggers notify (migration 0063): a parent, its links or its sessions changed. */
export const PARENT_STATE_TOPIC = 'parent-state';

/** A session is read again at least this often, whatever was heard: a bound on anything missed. */
export const CALLER_MEMORY_MAX_AGE_MS = 60_000;

/** Kept sessions of one kind are dropped all at once past this many (a bound, not an LRU). */
const MAX_KEPT_SESSIONS = 20_000;

/**
 * Sessions of one kind kept by token (the console's, the parent app's), all dropped together with the
 * memory's. A read from the database is kept only if nothing was heard while it ran: `begin` before
 * the read, `keep` with what it answered.
 */
export interface SessionShelf<Found> {
  /** A stamp for a read about to start; undefined while nothing is heard (read, and keep nothing). */
  begin(): number | undefined;
  /** What was kept for the token under the stamp, younger than the memory's age bound. */
  take(token: string, stamp: number, now: Date): Found | undefined;
  /** Keeps a read's answer; false (and not kept) when something was heard since its stamp. */
  keep(token: string, found: Found, stamp: number, now: Date): boolean;
  drop(token: string): void;
}

export interface CallerMemory {
  /** touchSession's answer, from memory when the session is kept and nothing was heard since. */
  lookup(db: Database, token: string, limits: SessionLimits, now: Date, options?: { isActivity?: boolean }): Promise<SessionLookup>;
  /** The shelf of another kind of session (the parent app's), named once per kind. */
  shelf<Found>(kind: string): SessionShelf<Found>;
  /** Drops everything kept (a change this instance made, or heard of). */
  forget(): void;
  close(): void;
}

/** Whether an app keeps its callers in memory: a messenger that hears the database, and CALLER_MEMORY not 0 (unset: off in tests). */
export function isCallerMemoryOn(env: Pick<Env, 'CALLER_MEMORY' | 'NODE_ENV'>, messenger: Messenger): boolean {
  const wanted = env.CALLER_MEMORY === undefined ? env.NODE_ENV !== 'test' : env.CALLER_MEMORY === '1';
  return wanted && messenger.listeningEpoch !== undefined;
}

export function createCallerMemory(messenger: Messenger, maxAgeMs = CALLER_MEMORY_MAX_AGE_MS): CallerMemory {
  const shelves = new Map<string, Map<string, { found: unknown; keptAt: number; generation: number }>>();
  // Moves whenever anything kept may be stale; a read started before a move is not kept.
  let generation = 1;
  let epoch = 0;
  const forget = () => {
    generation += 1;
    for (const kept of shelves.values()) kept.clear();
  };
  const unsubscribe = [CALLER_STATE_TOPIC, SESSION_ENDED_TOPIC, PARENT_STATE_TOPIC].map((topic) => messenger.subscribe(topic, forget));

  /** Whether notices are heard now; a new connection may have missed some, so it starts empty. */
  const isListening = () => {
    const current = messenger.listeningEpoch?.() ?? 0;
    if (current !== epoch) {
      epoch = current;
      forget();
    }
    return current !== 0;
  };

  function shelf<Found>(kind: string): SessionShelf<Found> {
    let kept = shelves.get(kind);
    if (!kept) {
      kept = new Map();
      shelves.set(kind, kept);
    }
    const own = kept;
    return {
      begin: () => (isListening() ? generation : undefined),
      take(token, stamp, now) {
        const entry = own.get(token);
        return entry && entry.generation === stamp && now.getTime() - entry.keptAt < maxAgeMs ? (entry.found as Found) : undefined;
      },
      keep(token, found, stamp, now) {
        if (generation !== stamp) {
          own.delete(token);
          return false;
        }
        if (own.size >= MAX_KEPT_SESSIONS) own.clear();
        own.set(token, { found, keptAt: now.getTime(), generation: stamp });
        return true;
      },
      drop: (token) => void own.delete(token),
    };
  }

  /**
   * The caller-state "version" of a call answered from memory: below zero, so a state kept under it
   * (caller-state.ts) is never taken for one kept under the database's own version.
   */
  const withLocalVersion = (lookup: SessionLookup, at: number): SessionLookup => (lookup.status === 'valid' ? { ...lookup, stateVersion: -at } : lookup);
  const consoleSessions = shelf<FoundSession>('console');

  return {
    async lookup(db, token, limits, now, { isActivity = true } = {}) {
      const at = consoleSessions.begin();
      if (at === undefined) return touchSession(db, token, limits, now, { isActivity });
      // Kept by the token itself: a call answered from memory spends no hash (the token is in this
      // process's memory anyway, in the request; it is never written anywhere from here).
      const kept = consoleSessions.take(token, at, now);
      if (kept) {
        const answer = await checkSession(db, kept, limits, now, isActivity);
        // Expired here may only mean another instance slid it since: ask the database.
        if (answer.status === 'valid') return withLocalVersion(answer, at);
      }
      const found = await findSession(db, hashToken(token));
      if (!found) {
        consoleSessions.drop(token);
        return { status: 'unknown' };
      }
      const answer = await checkSession(db, found, limits, now, isActivity);
      if (answer.status !== 'valid') {
        consoleSessions.drop(token);
        return answer;
      }
      return consoleSessions.keep(token, found, at, now) ? withLocalVersion(answer, at) : answer;
    },
    shelf,
    forget,
    close() {
      for (const stop of unsubscribe) stop();
      for (const kept of shelves.values()) kept.clear();
    },
  };
}

/** Whether a console call may have written: anything but reads by GET and the Search calls. */
function mayWrite(request: FastifyRequest): boolean {
  const { method } = request;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  return request.user !== null && !request.routeOptions.url?.endsWith('/Search');
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when this instance keeps its callers in memory (caller-memory.ts). */
    callerMemory: CallerMemory | null;
  }
}

/**
 * Decorates the app with its caller memory (or null) and drops it after every console call that may
 * have written, as its answer starts: the writer's own next call sees the change at once, other
 * instances when the database's notice arrives.
 */
export const callerMemoryPlugin = fp(
  async (app: FastifyInstance) => {
    const memory = isCallerMemoryOn(app.env, app.messenger) ? createCallerMemory(app.messenger) : null;
    app.decorate('callerMemory', memory);
    if (!memory) return;
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (mayWrite(request)) memory.forget();
      done(null, payload);
    });
    app.addHook('onClose', async () => memory.close());
  },
  { name: 'caller-memory', dependencies: ['context', 'messenger'] },
);
