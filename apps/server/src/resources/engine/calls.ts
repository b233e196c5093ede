/**
 * Calls a family's module answers besides those its declaration derives (the national calendar, a
 * questionnaire's results, the apps' version check): who may make one, how it is documented and the
 * envelope around its answer are stated here once, so a module gives its path, schemas and work.
 */
import type { ButtonValue } from '@campus/contract';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Readable } from 'node:stream';
import { sendWorkbook } from '../../platform/attachments.js';
import { errorResponses, ok, xlsxResponse } from '../../platform/envelope.js';
import { localeOf } from '../../platform/locale.js';
import { requireFrame } from '../../platform/permissions.js';
import { documentedCall, operationIdOf } from '../../platform/route-docs.js';

/** A module's call: `access` is `public` (no sign-in: a signed link, the apps at start), `signedIn` (any account) or a frame (and button) the caller holds. */
export interface CallSpec<Q extends z.ZodType, B extends z.ZodType, A extends z.ZodType> {
  /** The OpenAPI tag and the operation id's first part: the family's name, or the page's (Home). */
  tag: string;
  verb: string;
  path: string;
  method?: 'GET' | 'POST';
  access: 'public' | 'signedIn' | { frame: string; button?: ButtonValue };
  summary: string;
  query?: Q;
  body?: B;
  answer: A;
}

/** What a call's work is given: its validated query and body, the request (its caller) and the app. */
export interface CallInput<Q extends z.ZodType, B extends z.ZodType> {
  query: z.infer<Q>;
  body: z.infer<B>;
  request: FastifyRequest;
  app: FastifyInstance;
}

/** A module's call as routes to register: guarded, documented, its answer in the envelope. */
export function familyCall<Q extends z.ZodType, B extends z.ZodType, A extends z.ZodType>(
  spec: CallSpec<Q, B, A>,
  work: (input: CallInput<Q, B>) => Promise<z.infer<A>> | z.infer<A>,
): FastifyPluginAsync {
  const { access } = spec;
  return async (parent) => {
    parent.route({
      method: spec.method ?? 'GET',
      url: spec.path,
      config: { public: access === 'public' },
      ...(typeof access === 'object' ? { onRequest: requireFrame(access.frame, access.button) } : {}),
      schema: { ...documentedCall(spec.tag, spec.verb, spec.summary, spec.answer), ...(spec.query ? { querystring: spec.query } : {}), ...(spec.body ? { body: spec.body } : {}) },
      // Fastify validated both against the schemas above (the zod type provider): these are their parsed values.
      handler: async (request) => ok(await work({ query: request.query as z.infer<Q>, body: request.body as z.infer<B>, request, app: parent })),
    });
  };
}

/** A module's workbook download: a GET on a page, guarded by its `export` button. */
export interface WorkbookCallSpec<Q extends z.ZodType> {
  tag: string;
  verb: string;
  path: string;
  /** The page: its `export` button guards the call and names the file. */
  frame: string;
  summary: string;
  query: Q;
}

/**
 * A module's .xlsx download as routes to register: guarded by the page's `export` button, documented as
 * a workbook, sent with its type and the page's file name for the caller's day. `work` reads its first
 * rows before answering the stream (a failing query then answers the error envelope).
 */
export function workbookCall<Q extends z.ZodType>(spec: WorkbookCallSpec<Q>, work: (input: Omit<CallInput<Q, z.ZodNever>, 'body'> & { locale: 'zh' | 'en' }) => Promise<Readable>): FastifyPluginAsync {
  return async (parent) => {
    parent.route({
      method: 'GET',
      url: spec.path,
      onRequest: requireFrame(spec.frame, 'export'),
      schema: { tags: [spec.tag], operationId: operationIdOf(spec.tag, spec.verb), summary: spec.summary, querystring: spec.query, response: { 200: xlsxResponse, ...errorResponses } },
      handler: async (request, reply) => {
        const locale = localeOf(request);
        const workbook = await work({ query: request.query as z.infer<Q>, request, app: parent, locale });
        return sendWorkbook(reply, workbook, spec.frame, locale, parent.clock.now());
      },
    });
  };
}
