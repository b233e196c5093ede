/**
 * The Open API (developManage): GET /api/Open/RecognitionEvents answers the recognition records of
 * the schools a developer may read, oldest first, key-paged by (recognizedAt, id). No session: each
 * call is signed with the developer's secret (api/open-api.ts). Refused, with nothing stored: an
 * unknown or disabled app id, no secret issued, a bad signature, a timestamp off by more than five
 * minutes, a nonce seen before. Every refusal answers the same 401; the reason goes to the platform log.
 */
import {
  ErrorCode,
  INTAKE_MAX_CLOCK_SKEW_MS,
  INTAKE_NONCE_PATTERN,
  OPEN_API_HEADERS,
  OPEN_API_PATHS,
  openEventsAnswerSchema,
  openEventsQuerySchema,
  type OpenEventsAnswer,
} from '@campus/contract';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { openSignature, signatureMatches } from '@campus/contract/terminal-signing';
import { developerSchools, openApiNonces } from '../db/schema/open-api.js';
import { developers, recognitionRecords } from '../db/schema/resources.js';
import { ok } from '../platform/envelope.js';
import { AppError, msg } from '../platform/errors.js';
import { documentedCall } from '../platform/route-docs.js';
import { openEventColumns, openEventOf } from '../developers/open-events.js';
import { openSealedSecret } from '../platform/sealed-secrets.js';

type Refusal = 'missing headers' | 'unknown app' | 'disabled' | 'no secret' | 'stale timestamp' | 'bad signature' | 'nonce reused';

class OpenRefusal extends Error {
  constructor(readonly reason: Refusal) {
    super(reason);
  }
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** The developer a signed call comes from; throws an OpenRefusal otherwise. Stores the nonce last. */
async function verifiedDeveloper(request: FastifyRequest): Promise<{ id: number }> {
  const db = request.server.db;
  const appId = header(request, OPEN_API_HEADERS.appId);
  const timestamp = header(request, OPEN_API_HEADERS.timestamp);
  const nonce = header(request, OPEN_API_HEADERS.nonce);
  const signature = header(request, OPEN_API_HEADERS.signature);
  if (!appId || !timestamp || !nonce || !signature || appId.length > 64 || !INTAKE_NONCE_PATTERN.test(nonce) || !/^[0-9a-f]{64}$/i.test(signature)) throw new OpenRefusal('missing headers');
  const now = request.server.clock.now().getTime();
  if (!/^\d{1,15}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > INTAKE_MAX_CLOCK_SKEW_MS) throw new OpenRefusal('stale timestamp');
  const [developer] = await db.select({ id: developers.id, enabled: developers.enabled, secretSealed: developers.secretSealed }).from(developers).where(eq(developers.appId, appId));
  if (!developer) throw new OpenRefusal('unknown app');
  if (!developer.enabled) throw new OpenRefusal('disabled');
  if (!developer.secretSealed) throw new OpenRefusal('no secret');
  const secret = await openSealedSecret(db, String(developer.secretSealed));
  if (secret === undefined) throw new OpenRefusal('no secret');
  if (!signatureMatches(openSignature(secret, { method: request.method, pathWithQuery: request.url, timestamp, nonce }), signature)) throw new OpenRefusal('bad signature');
  // Only a correctly signed call spends its nonce, so junk cannot fill the table.
  const stored = await db.insert(openApiNonces).values({ developerId: developer.id, nonce }).onConflictDoNothing().returning({ nonce: openApiNonces.nonce });
  if (stored.length === 0) throw new OpenRefusal('nonce reused');
  // Nonces older than twice the skew can never be replayed (their timestamp is refused first).
  await db.delete(openApiNonces).where(and(eq(openApiNonces.developerId, developer.id), lt(openApiNonces.createdAt, new Date(now - 2 * INTAKE_MAX_CLOCK_SKEW_MS))));
  return { id: developer.id };
}

/** `since` as the key to read after: `<time>_<id>` from a previous answer, or a bare time (every id). */
function keyOf(since: string | undefined): { time: Date; id: number } | undefined {
  if (!since) return undefined;
  const [time, id] = since.split('_');
  return { time: new Date(time!), id: id === undefined ? 0 : Number(id) };
}

export const openApiRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    OPEN_API_PATHS.recognitionEvents,
    {
      config: { public: true },
      schema: {
        ...documentedCall('Open', 'RecognitionEvents', "Recognition records of the developer's schools, oldest first, signed with the developer's secret", openEventsAnswerSchema),
        querystring: openEventsQuerySchema,
      },
    },
    async (request) => {
      let developer: { id: number };
      try {
        developer = await verifiedDeveloper(request);
      } catch (error) {
        if (!(error instanceof OpenRefusal)) throw error;
        request.log.warn({ appId: header(request, OPEN_API_HEADERS.appId), reason: error.reason, route: OPEN_API_PATHS.recognitionEvents, method: 'GET', statusCode: 401 }, 'open API call refused');
        throw new AppError(401, ErrorCode.TokenInvalid, msg('open.refused'));
      }
      const { since, limit } = request.query;
      const after = keyOf(since);
      const r = recognitionRecords;
      const schoolsOf = sql`select ${developerSchools.schoolId} from ${developerSchools} where ${developerSchools.developerId} = ${developer.id}`;
      const rows = await app.db
        .select(openEventColumns)
        .from(r)
        // Row comparison: one index range over (school, time, id) per school, read in key order.
        .where(and(sql`${r.schoolId} in (${schoolsOf})`, after ? sql`(${r.recognizedAt}, ${r.id}) > (${after.time.toISOString()}::timestamptz, ${after.id})` : undefined))
        .orderBy(asc(r.recognizedAt), asc(r.id))
        .limit(limit + 1);
      // Snapshots answer signed addresses: the developer's server opens them without a console session.
      const signer = await app.mediaUrls();
      const page = rows
        .slice(0, limit)
        .map((row) => openEventOf(row, (stored) => signer.sign(stored)));
      const last = page[page.length - 1];
      const answer: OpenEventsAnswer = { items: page, next: last ? `${last.recognizedAt}_${last.id}` : null, hasMore: rows.length > limit };
      return ok(answer);
    },
  );
};
