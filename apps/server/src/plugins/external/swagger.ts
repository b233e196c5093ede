import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs. */
export const swaggerPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Campus Ops Console API', version: '0.1.0', description: 'Every JSON answer is the envelope { code, message, data }.' },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        security: [{ bearer: [] }],
      },
      transform: jsonSchemaTransform,
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
