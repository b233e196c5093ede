import { API_PATHS, ErrorCode } from '@campus/contract';
import underPressure from '@fastify/under-pressure';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AsyncResource } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { dbWaitFigures, releaseDbWait, startDbWait, type DbWait, type QueryQueue } from '../db/query-queue.js';
import { AppError, msg } from './errors.js';

/** Seconds a shed caller is told to wait (Retry-After); the web client adds jitter and backs off. */
export const RETRY_AFTER_SECONDS = 2;

export interface LoadSheddingOptions {
  queue: QueryQueue;
  /** Event-loop delay in ms above which API calls are refused; 0 = never. */
  maxEventLoopDelayMs: number;
  /** Event-loop utilization (0–1) above which API calls are refused while calls queue; 0 = never. */
  maxEventLoopUtilization: number;
  /**
   * Calls in flight from which a busy event loop counts as a queue. Below it the loop is busy serving
   * the few calls it has: refusing them would only turn work it can do into retries.
   */
  utilizationMinInFlight: number;
  /** Waiting statements above which API calls are refused; 0 = never. */
  maxDbQueue: number;
  /** Age in ms of the oldest waiting statement above which API calls are refused; 0 = never. */
  maxDbWaitMs: number;
  /** API calls in progress above which new ones are refused; 0 = never. */
  maxInFlight: number;
  /**
   * Whether each call's line is written out (LOG_LEVEL at info or below). Otherwise only a shed call's
   * line is made, for the platform log: building and dropping one per call was 2 % of a Search's CPU.
   */
  logEveryCall: boolean;
}

interface RequestTiming {
  dbWait: DbWait;
  /** Restores the request's async context after body parsing (which runs in the socket's context); only with the store. */
  resource?: AsyncResource;
  /** Its statements' waits as its answer started (undefined: not known). */
  dbWaitFigures?: { waitedMs: number; count: number };
  /** Why the request was refused, when it was. */
  shedReason?: string;
  /** Counted in the calls in flight (until its answer is sent or it is aborted). */
  inFlight?: boolean;
  /** Stops counting it (set while it is counted). */
  leave?: () => void;
}

const timings = new WeakMap<FastifyRequest, RequestTiming>();

/** The 503 answer: the envelope with the catalogue's "server busy", Retry-After set by the caller. */
function serverBusy(): AppError {
  return new AppError(503, ErrorCode.ServiceUnavailable, msg('error.serverBusy'));
}

/**
 * Only API calls are shed: they are what queue on the database. The health check answers the load
 * balancer's question "is the process alive" and must not fail because it is busy; the web app's
 * static files never touch the database.
 */
function isSheddable(request: FastifyRequest): boolean {
  return request.url.startsWith('/api/') && request.routeOptions.url !== API_PATHS.health;
}

/**
 * A long-lived answer (the live event stream) stops counting as a call in flight once it is admitted:
 * hundreds of open streams wait for nothing and must not shed the calls behind them.
 */
export function leaveInFlight(request: FastifyRequest): void {
  timings.get(request)?.leave?.();
}

/** Milliseconds with two decimals, for the log line and Server-Timing. */
const rounded = (ms: number) => Math.round(ms * 100) / 100;

/**
 * Sheds load instead of queueing without bound (ARCHITECTURE "Scale beyond one machine"): an API
 * call arriving while the event loop lags (@fastify/under-pressure), while the database queue is
 * long, or while the loop is busy and more calls than it serves at once are waiting for it, answers
 * 503 with Retry-After at once. Shedding is always on waiting, never on utilization alone, so a burst costs the refused callers a retry rather
 * than every caller tens of seconds. Also writes one log line per request with its time and the
 * time its statements waited for a connection (`dbWaitMs`), and the same as a Server-Timing header
 * (`app;dur=…, db-wait;dur=…`) for benchmarks and the browser's developer tools.
 */
export const loadSheddingPlugin = fp<LoadSheddingOptions>(
  async (app, options) => {
    const { queue } = options;

    // Each request gets its own wait counter; the database wrappers find it through async context.
    app.addHook('onRequest', (request, _reply, done) => {
      startDbWait((dbWait) => {
        timings.set(request, { dbWait, ...(dbWait.tracked && { resource: new AsyncResource('campus-request') }) });
        done();
      });
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const resource = timings.get(request)?.resource;
      if (resource) resource.runInAsyncScope(done);
      else done();
    });

    // The first samples cover the start itself (loading routes, compiling): no verdict before then.
    const SAMPLE_MS = 500;
    let judgedFrom = Infinity;
    app.addHook('onReady', async () => {
      judgedFrom = performance.now() + 2 * SAMPLE_MS;
    });

    // The calls in flight: when the process is short of CPU, calls queue for the event loop between
    // their awaits while its mean delay stays low (each turn is short).
    let inFlight = 0;

    if (options.maxEventLoopDelayMs > 0 || options.maxEventLoopUtilization > 0) {
      await app.register(underPressure, {
        maxEventLoopDelay: options.maxEventLoopDelayMs,
        maxEventLoopUtilization: options.maxEventLoopUtilization,
        // Utilization of the last sample, not since the start: a busy minute an hour ago says nothing.
        eventLoopUtilizationMode: 'interval',
        sampleInterval: SAMPLE_MS,
        retryAfter: RETRY_AFTER_SECONDS,
        pressureHandler: (request, reply, type) => {
          if (!isSheddable(request) || performance.now() < judgedFrom) return undefined;
          // Utilization alone is no queue: one client with two calls in flight keeps a loop busy and
          // waits for nobody. It sheds only with more calls in flight than the loop serves at once.
          if (type === 'eventLoopUtilization' && inFlight < options.utilizationMinInFlight) return undefined;
          const timing = timings.get(request);
          if (timing) timing.shedReason = type;
          reply.header('retry-after', RETRY_AFTER_SECONDS);
          return Promise.reject(serverBusy());
        },
      });
    }

    // The database queue, and the calls in flight. Callback hooks here and below, not async ones: every
    // call runs them, and a promise each buys nothing.
    app.addHook('onRequest', (request, reply, done) => {
      if (!isSheddable(request)) return done();
      const timing = timings.get(request);
      const reason =
        options.maxDbQueue > 0 && queue.waiting() > options.maxDbQueue
          ? 'dbQueue'
          : options.maxDbWaitMs > 0 && queue.oldestWaitMs() > options.maxDbWaitMs
            ? 'dbWait'
            : options.maxInFlight > 0 && inFlight >= options.maxInFlight
              ? 'inFlight'
              : undefined;
      if (!reason) {
        if (timing) {
          timing.inFlight = true;
          timing.leave = () => leave(timing);
        }
        inFlight += 1;
        return done();
      }
      if (timing) timing.shedReason = reason;
      reply.header('retry-after', RETRY_AFTER_SECONDS);
      done(serverBusy());
    });
    // Stops counting the call in flight, and its hold on the db-wait store: its answer has gone, or it is
    // a stream that must not keep the store enabled for the hours it may stay open.
    const leave = (timing: RequestTiming | undefined) => {
      if (!timing) return;
      releaseDbWait(timing.dbWait);
      if (!timing.inFlight) return;
      timing.inFlight = false;
      inFlight -= 1;
    };
    app.addHook('onRequestAbort', (request, done) => {
      leave(timings.get(request));
      done();
    });

    // db-wait is left out when it is not known (a statement may have waited while the store was off).
    app.addHook('onSend', (request, reply, payload, done) => {
      const timing = timings.get(request);
      if (timing) {
        timing.dbWaitFigures = dbWaitFigures(timing.dbWait);
        const dbWait = timing.dbWaitFigures ? `, db-wait;dur=${rounded(timing.dbWaitFigures.waitedMs)}` : '';
        reply.header('server-timing', `app;dur=${rounded(reply.elapsedTime)}${dbWait}`);
      }
      done(null, payload);
    });

    // Replaces Fastify's two request lines (disableRequestLogging in app.ts) by one with the waits.
    app.addHook('onResponse', (request, reply, done) => {
      const timing = timings.get(request);
      leave(timing);
      const dbWait = timing?.dbWaitFigures;
      if (options.logEveryCall || timing?.shedReason) request.log.info(
        {
          req: { method: request.method, url: request.url, remoteAddress: request.ip },
          statusCode: reply.statusCode,
          responseTime: rounded(reply.elapsedTime),
          ...(dbWait && { dbWaitMs: rounded(dbWait.waitedMs), dbWaits: dbWait.count }),
          ...(timing?.shedReason ? { shed: timing.shedReason } : {}),
        },
        'request completed',
      );
      done();
    });
  },
  { name: 'load-shedding' },
);
