import type { MessageLocale } from '@campus/contract';
import type { FastifyRequest } from 'fastify';

/** The caller's language for messages and export labels: `lang` query, then Accept-Language; zh by default. */
export function localeOf(request: FastifyRequest): MessageLocale {
  const query = request.query as { lang?: unknown } | undefined;
  const wanted = typeof query?.lang === 'string' ? query.lang : (request.headers['accept-language'] ?? 'zh');
  return wanted.toLowerCase().startsWith('en') ? 'en' : 'zh';
}
