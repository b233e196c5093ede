import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { documentedRoute } from '../../platform/openapi-conventions.js';

/**
 * Documents built in this process, by what an app builds one from. Converting every route's zod schemas
 * costs some 3 s of CPU, and a process that builds several apps (the API tests: one per file, several
 * files per worker) would otherwise build the same document again for each.
 */
const builtDocuments = new Map<string, object>();

/** Forgets the documents built so far, so the next one is built afresh (the test comparing the two). */
export function forgetBuiltDocuments(): void {
  builtDocuments.clear();
}

/**
 * What a document depends on besides the code: the routes (method, address, config) and the environment.
 * The database's address and data folder are left out: no schema names them, and each test app has its own.
 */
export function documentKey(routes: readonly RouteOptions[], env: object, dbKind: string): string | undefined {
  const { DATABASE_URL: _address, DATA_DIR: _folder, ...rest } = env as Record<string, unknown>;
  try {
    return JSON.stringify({ env: rest, dbKind, routes: routes.map((route) => [route.method, route.url, route.config ?? null]) });
  } catch {
    // A config that does not serialize (a cycle): that app's document is built, not kept.
    return undefined;
  }
}

/** Freezes a shared document, so a caller that changes it fails at once instead of changing another app's. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs; built once per process for the same routes and environment. */
export const swaggerPlugin = fp(
  async (app) => {
    // Before @fastify/swagger's own hook, so that both see every route; their config is read when a document is asked for.
    const routes: RouteOptions[] = [];
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
    await app.register(swagger, {
      openapi: {
        // 3.1: zod's nullable fields become type unions (`type: ['string', 'null']`), as JSON Schema 2020-12 writes them.
        openapi: '3.1.0',
        info: {
          title: 'Campus Ops Console API',
          version: '0.1.0',
          description: 'Every JSON answer is the envelope { code, message, data }.',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        // Relative: the paths start at the root of whichever console serves this document.
        servers: [{ url: '/', description: 'The console that serves this document' }],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        security: [{ bearer: [] }],
      },
      transform: (input) => jsonSchemaTransform({ ...input, ...documentedRoute(input) }),
      // Schemas registered with an id (the recursive tree nodes) become components the operations point at.
      transformObject: jsonSchemaTransformObject,
    });
    const build = app.swagger.bind(app);
    const swaggerOnce = (options?: { yaml?: boolean }) => {
      if (options?.yaml) return build({ yaml: true });
      const key = documentKey(routes, app.env, app.dbKind);
      if (key === undefined) return build();
      let document = builtDocuments.get(key);
      if (!document) {
        document = deepFreeze(build());
        builtDocuments.set(key, document);
      }
      return document;
    };
    app.swagger = swaggerOnce as typeof app.swagger;
    await app.register(async (docs) => {
      // The documentation pages are readable without a session.
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true };
      });
      await docs.register(swaggerUi, { routePrefix: '/api/docs' });
    });
  },
  { name: 'swagger' },
);
