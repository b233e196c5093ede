/** The caller's active sessions: list them, end one, end all others. */
import {
  API_PATHS,
  endSessionRequestSchema,
  sessionPageSchema,
  sessionsQuerySchema,
} from '@campus/contract';
import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessions } from '../../db/schema/index.js';
import { envelopeSchema, ok } from '../../platform/envelope.js';
import { notFound, msg } from '../../platform/errors.js';
import { endSession } from '../../platform/sessions.js';
import { announceSessionsEnded } from '../../platform/live-events.js';
import { describeUserAgent } from '../../platform/user-agents.js';


export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.sessions,
    {
      schema: {
        tags: ['User'],
        summary: "A page of the caller's active sessions: this one first, then by last activity; browser and system in words",
        querystring: sessionsQuerySchema,
        response: { 200: envelopeSchema(sessionPageSchema) },
      },
    },
    async (request) => {
      const { pageIndex, pageSize } = request.query;
      const active = and(eq(sessions.userId, request.user.id), gt(sessions.expiresAt, app.clock.now()));
      const [rows, [counted]] = await Promise.all([
        app.db
          .select()
          .from(sessions)
          .where(active)
          .orderBy(desc(sql`${sessions.id} = ${request.user.sessionId}`), desc(sessions.lastSeenAt), desc(sessions.id))
          .limit(pageSize)
          .offset((pageIndex - 1) * pageSize),
        app.db.select({ total: sql<number>`count(*)::int` }).from(sessions).where(active),
      ]);
      return ok({
        total: Number(counted?.total ?? 0),
        items: rows.map((row) => ({
          id: row.id,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          ip: row.ip,
          userAgent: row.userAgent,
          ...describeUserAgent(row.userAgent),
          isCurrent: row.id === request.user.sessionId,
        })),
      });
    },
  );

  app.post(
    API_PATHS.endSession,
    {
      schema: {
        tags: ['User'],
        summary: "End one of the caller's sessions (another browser or device)",
        body: endSessionRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const [session] = await app.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, request.body.id), eq(sessions.userId, request.user.id)));
      if (!session) throw notFound(msg('error.sessionNotFound'));
      await endSession(app.db, session.id);
      announceSessionsEnded(app.messenger, [session.id]);
      return ok(null);
    },
  );

  app.post(
    API_PATHS.endOtherSessions,
    {
      schema: {
        tags: ['User'],
        summary: "End every session of the caller but the one making this call",
        response: { 200: envelopeSchema(z.object({ ended: z.number() })) },
      },
    },
    async (request) => {
      const ended = await app.db
        .delete(sessions)
        .where(and(eq(sessions.userId, request.user.id), ne(sessions.id, request.user.sessionId)))
        .returning({ id: sessions.id });
      announceSessionsEnded(app.messenger, ended.map((session) => session.id));
      return ok({ ended: ended.length });
    },
  );
};
