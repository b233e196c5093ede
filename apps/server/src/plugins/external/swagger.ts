import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { documentedRoute } from '../../platform/openapi-conventions.js';

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs. */
export const swaggerPlugin = fp(
  async (app) => {
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
