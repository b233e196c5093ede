/**
 * GET /api/Live/Stream: the caller's server-sent events (docs/live.md). Opened by a console session
 * as a background call (it never keeps the session alive); it carries the events of the caller's
 * scope only, sends a heartbeat every LIVE_HEARTBEAT_SECONDS and checks the session again with it,
 * and ends when the session ends (log-out at once, idle or absolute expiry by the next heartbeat).
 */
import { LIVE_PATHS, type LiveEvent } from '@campus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bearerToken } from '../../platform/auth.js';
import { cachedCallerState, getRequestState } from '../../platform/caller-state.js';
import { errorResponses } from '../../platform/envelope.js';
import { badRequest, msg } from '../../platform/errors.js';
import { LIVE_MESSAGE_TOPIC, SESSION_ENDED_TOPIC } from '../../platform/live-events.js';
import { leaveInFlight } from '../../platform/load-shedding.js';
import type { SchoolScope } from '../../platform/scope.js';
import { touchSession } from '../../platform/sessions.js';

/** A client that reads slower than events come is dropped past this much unsent text; it reconnects and refetches. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Whether the caller's scope covers an event's school (an event of no school reaches everyone). */
export function isInScope(scope: SchoolScope, event: Pick<LiveEvent, 'schoolId'>): boolean {
  return event.schoolId === null || scope.kind === 'all' || scope.schoolIds.includes(event.schoolId);
}

const sseText = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** The open streams of each app: ended when it closes, or it would wait for them for ever. */
const openStreams = new WeakMap<FastifyInstance, Set<() => void>>();

async function openStream(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const app = request.server;
  const streams = openStreams.get(app)!;
  // Only a reader that asks for events gets a stream that never ends; anything else is told at once.
  if (!String(request.headers.accept ?? '').includes('text/event-stream')) throw badRequest([{ path: 'accept', ...msg('validation.invalid') }]);
  let { scope } = await getRequestState(request);
  const token = bearerToken(request)!;
  const { user } = request;
  leaveInFlight(request);
  reply.hijack();
  const raw = reply.raw;
  // The headers set so far (request id, security headers) go out with the stream's own.
  const earlier = Object.fromEntries(Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined));
  raw.writeHead(200, {
    ...earlier,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    // A proxy in front (nginx) would otherwise buffer the events.
    'x-accel-buffering': 'no',
  });
  let isOpen = true;
  const send = (text: string) => {
    if (!isOpen) return;
    if (raw.writableLength > MAX_BUFFERED_BYTES) return close();
    raw.write(text);
  };
  const unsubscribeEvents = app.messenger.subscribe(LIVE_MESSAGE_TOPIC, (body) => {
    const event = body as LiveEvent;
    if (isInScope(scope, event)) send(sseText(event.topic, event));
  });
  const end = (reason: string) => {
    send(sseText('session', { reason }));
    close();
  };
  const unsubscribeSessions = app.messenger.subscribe(SESSION_ENDED_TOPIC, (body) => {
    if ((body as { sessionIds?: number[] }).sessionIds?.includes(user.sessionId)) end('ended');
  });
  const heartbeat = setInterval(() => void beat(), app.env.LIVE_HEARTBEAT_SECONDS * 1000);
  heartbeat.unref();

  /** The session checked as a background call (it slides nothing), and the scope read again when it changed. */
  async function beat(): Promise<void> {
    try {
      const session = await touchSession(app.db, token, app.env.sessionLimits, app.clock.now(), { isActivity: false });
      if (session.status !== 'valid' || !session.user.enabled) return end(session.status === 'expired' ? 'expired' : 'ended');
      scope = (await cachedCallerState(app.db, user, session.stateVersion, app.clock.now().getTime())).scope;
      send(': heartbeat\n\n');
    } catch (error) {
      request.log.warn({ err: error }, 'live stream heartbeat failed');
    }
  }

  function close(): void {
    if (!isOpen) return;
    isOpen = false;
    streams.delete(close);
    clearInterval(heartbeat);
    unsubscribeEvents();
    unsubscribeSessions();
    raw.end();
  }
  raw.on('close', close);
  streams.add(close);
  // The browser retries after 3 s when the connection drops (EventSource); the web's reader does the same.
  send(`retry: 3000\n${sseText('ready', { transport: app.messenger.transport, heartbeatSeconds: app.env.LIVE_HEARTBEAT_SECONDS })}`);
}

export async function liveStreamRoutes(app: FastifyInstance): Promise<void> {
  const streams = new Set<() => void>();
  openStreams.set(app, streams);
  // Before the server stops accepting: a browser's reader reconnects to another instance.
  app.addHook('preClose', async () => {
    for (const close of [...streams]) close();
  });
  app.get(
    LIVE_PATHS.stream,
    {
      schema: {
        tags: ['Live'],
        operationId: 'Live_Stream',
        summary: "Server-sent events of the caller's scope (badges, terminals, recognitions, overview); send Accept: text/event-stream and X-Background: 1",
        description:
          'A `text/event-stream`: `event: ready` first, then `event: <topic>` with `data: {"topic","schoolId","data","at"}` (docs/live.md), a `: heartbeat` comment every LIVE_HEARTBEAT_SECONDS, and `event: session` before it ends with the session.',
        response: { 200: z.string().describe('text/event-stream'), ...errorResponses },
      },
    },
    openStream,
  );
}
