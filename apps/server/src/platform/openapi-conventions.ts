/**
 * What every operation of the OpenAPI document carries, whoever wrote its route: a stable operation id
 * (`Family_Verb` from its path), its failures in the envelope's schema, `security: []` when it needs no
 * session, and path parameters a client generator can name. Applied to the document only, through
 * @fastify/swagger's `transform`: the routes' own schemas, which validate and serialize, stay as they are.
 */
import { API_PATHS } from '@campus/contract';
import type { FastifySchema, RouteOptions } from 'fastify';
import { z } from 'zod';
import { errorEnvelopeSchema, errorResponses } from './envelope.js';

/** The operation id of a route without one: its path's words joined by `_` (`/api/Account/Login_web` → `Account_Login_web`). */
export function operationIdOfPath(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .replace(/\*/g, 'file')
    .split(/[^A-Za-z0-9_]+/)
    .filter(Boolean);
  // One path answers one method in this API; another method on it would get its own prefix.
  return method === 'GET' || method === 'POST' ? words.join('_') : `${method.toLowerCase()}_${words.join('_')}`;
}

const malformed = errorEnvelopeSchema.describe('Invalid input, or a URL that does not decode: data.errors lists the field errors');
const serverBusy = errorEnvelopeSchema.describe('Server busy (load shed), or a write rolled back by the database to break a deadlock with another: try again after the Retry-After header');

/** Whether a schema part (querystring, body, params) names a row by id, so the row may be absent or out of scope. */
function namesRow(part: unknown): boolean {
  if (!(part instanceof z.ZodObject)) return false;
  return Object.keys(part.shape as Record<string, unknown>).some((key) => key === 'id' || key === 'ids' || key.endsWith('Id'));
}

/** The parts of a route schema the document reads besides Fastify's own. */
type DocumentedSchema = FastifySchema & { hide?: boolean; operationId?: string; response?: Record<string | number, unknown> };

/** The route as the document shows it (module doc); hidden routes pass through untouched. */
export function documentedRoute(input: { schema: FastifySchema; url: string; route: RouteOptions }): { schema: FastifySchema; url: string } {
  const { url, route } = input;
  const schema = input.schema as DocumentedSchema | undefined;
  if (!schema || schema.hide) return { schema: input.schema, url };
  const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
  const isPublic = (route.config as { public?: boolean } | undefined)?.public === true;
  const isApi = url.startsWith('/api/');
  const declared = schema.response ?? {};
  const failures: Record<number, unknown> = {
    // Every call can meet a URL that does not decode, and most validate an input.
    400: errorResponses[400],
    ...(isPublic ? {} : { 401: errorResponses[401], 403: errorResponses[403] }),
    ...(namesRow(schema.querystring) || namesRow(schema.body) ? { 404: errorResponses[404] } : {}),
    500: errorResponses[500],
    // API calls are shed under load (platform/load-shedding.ts); the health check never is.
    ...(isApi && url !== API_PATHS.health ? { 503: serverBusy } : {}),
  };
  if (!(schema.querystring || schema.body || schema.params)) failures[400] = malformed;
  let documentedUrl = url;
  let params = schema.params;
  // A wildcard is no OpenAPI path parameter: name it, so generators and validators can.
  if (url.endsWith('*')) {
    documentedUrl = `${url.slice(0, -1)}:path`;
    params = z.object({ path: z.string().describe('The rest of the address, as the answer that gave it out wrote it') });
  }
  return {
    url: documentedUrl,
    schema: {
      ...schema,
      ...(params ? { params } : {}),
      operationId: schema.operationId ?? operationIdOfPath(method, url),
      ...(isPublic ? { security: [] } : {}),
      response: { ...failures, ...declared },
    },
  };
}
