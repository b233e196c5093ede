import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@campus/contract';
import fp from 'fastify-plugin';
import { REPO_ROOT } from '../../env.js';

/** Where `npm run build -w apps/web` writes the web app. */
export const WEB_DIST_DIR = path.join(REPO_ROOT, 'apps/web/dist');

/**
 * Serves the built web app, and index.html for any other non-/api path so the client router can take
 * it (SPA fallback). Unknown /api paths answer the 404 envelope. Without a build only the API runs.
 */
export const webAppPlugin = fp<{ root?: string }>(
  async (app, options) => {
    const root = options.root ?? WEB_DIST_DIR;
    const hasWebApp = fs.existsSync(path.join(root, 'index.html'));
    if (hasWebApp) await app.register(fastifyStatic, { root, wildcard: true });
    app.setNotFoundHandler((request, reply) => {
      // A missing built file (an old chunk after a new build) is a 404, never index.html: the browser
      // would otherwise run HTML as a script and the page could not tell it needs a reload.
      const isPageRequest =
        !request.url.startsWith('/api') && !request.url.startsWith('/assets/') && (request.method === 'GET' || request.method === 'HEAD');
      if (hasWebApp && isPageRequest) return reply.sendFile('index.html');
      return reply.status(404).send({ code: ErrorCode.NotFound, message: 'address not found', data: { url: request.url } });
    });
  },
  { name: 'web-app' },
);
