import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@campus/contract';
import fp from 'fastify-plugin';
import { REPO_ROOT } from '../../env.js';

/** Where `npm run build -w apps/web` writes the web app. */
export const WEB_DIST_DIR = path.join(REPO_ROOT, 'apps/web/dist');

/** Build files under assets/ carry a hash of their content in their name: a name never changes meaning. */
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** index.html (and the few unhashed files) may change with each deployment: revalidated on every use. */
const REVALIDATE_CACHE = 'no-cache';

/**
 * The caching headers of a served build file. `filePath` is the file sent, possibly its .br or .gz
 * copy; the answer depends on the Accept-Encoding, so shared caches must key on it (Vary).
 */
export function setStaticHeaders(response: { setHeader(name: string, value: string): unknown }, filePath: string, root: string): void {
  const isHashedAsset = path.relative(root, filePath).split(path.sep)[0] === 'assets';
  response.setHeader('cache-control', isHashedAsset ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
  response.setHeader('vary', 'Accept-Encoding');
}

/**
 * Serves the built web app, and index.html for any other non-/api path so the client router can take
 * it (SPA fallback). Unknown /api paths answer the 404 envelope. Without a build only the API runs.
 * Files are sent from the brotli or gzip copy the web build wrote beside them when the browser
 * accepts it (the file itself otherwise); hashed assets are cached for a year, index.html revalidated.
 */
export const webAppPlugin = fp<{ root?: string }>(
  async (app, options) => {
    const root = path.resolve(options.root ?? WEB_DIST_DIR);
    const hasWebApp = fs.existsSync(path.join(root, 'index.html'));
    if (hasWebApp) {
      await app.register(fastifyStatic, {
        root,
        wildcard: true,
        preCompressed: true,
        // Our own Cache-Control per file (setStaticHeaders), not the plugin's `max-age=0` for all.
        cacheControl: false,
        setHeaders: (response, filePath) => setStaticHeaders(response, filePath, root),
      });
    }
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
