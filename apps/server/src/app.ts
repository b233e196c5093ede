import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from './db/client.js';
import type { Env } from './env.js';
import { swaggerPlugin } from './plugins/external/swagger.js';
import { webAppPlugin } from './plugins/external/web-app.js';
import { authPlugin, type SessionLookupFn } from './platform/auth.js';
import { callerMemoryPlugin } from './platform/caller-memory.js';
import { systemClock, type Clock } from './platform/clock.js';
import { contextPlugin } from './platform/context.js';
import { messengerPlugin } from './platform/messenger-plugin.js';
import type { Messenger } from './platform/messenger.js';
import { errorHandlerPlugin, frameworkErrorHandler } from './platform/error-handler.js';
import { loadSheddingPlugin } from './platform/load-shedding.js';
import { logDestination, loggerLevelFor, writesInfo } from './platform/log-destination.js';
import { createPlatformLogSink } from './platform/platform-log-sink.js';
import { requestIdOf, requestIdPlugin } from './platform/request-id.js';
import { securityHeadersPlugin } from './platform/security-headers.js';
import type { SmsProvider } from './platform/sms.js';
import { createSmsProvider } from './platform/sms-providers/index.js';
import { mediaUrlsPlugin } from './platform/media-urls.js';
import { uploadsPlugin, type UploadStorage } from './platform/uploads.js';
import { terminalSecretsPlugin } from './terminals/secrets.js';
import { intakeRoutes } from './terminals/intake-routes.js';
import { validatorCompiler } from './platform/validation.js';
import { createAnswerSerializerCompiler } from './platform/answer-serializer.js';
import { accountRoutes } from './routes/account.js';
import { fileRoutes } from './routes/file.js';
import { healthRoutes } from './routes/health.js';
import { homeRoutes } from './routes/home.js';
import { permissionRoutes } from './routes/permission.js';
import { userRoutes } from './routes/user/index.js';
import { accountOptionsRoutes } from './routes/account-options.js';
import { payRoutes } from './routes/pay.js';
import { createPaymentProviders, paymentsPlugin, type PaymentProviderOptions } from './finance/providers/index.js';
import { resourceRoutes } from './resources/index.js';
import { installFamilies } from './resources/families.js';
import { searchCountsPlugin } from './resources/engine/search-counts.js';
import { reportRoutes } from './reports/index.js';
import { personSearchRoutes } from './routes/person-search.js';
import { openApiRoutes } from './routes/open-api.js';
import { preferenceRoutes } from './routes/preferences.js';
import { appChannelRoutes } from './app-channel/index.js';
import { liveRoutes } from './routes/live/index.js';

export interface BuildAppOptions {
  env: Env;
  database: DatabaseHandle;
  /** Defaults to the provider SMS_PROVIDER names (the outbox, written to sms_outbox, unless set). */
  smsProvider?: SmsProvider;
  /** Defaults to the system clock; tests pass one they move by hand. */
  clock?: Clock;
  /** The built web app to serve; defaults to apps/web/dist. */
  webRoot?: string;
  /** Where uploads are kept; defaults to the local disk under UPLOAD_DIR. */
  uploadStorage?: UploadStorage;
  /** The payment providers' HTTP client and nonces; tests replay recorded WeChat Pay exchanges. */
  paymentProviders?: PaymentProviderOptions;
  /** How a bearer token's session is found; defaults to the sessions table (platform/sessions.ts). */
  lookupSession?: SessionLookupFn;
  /** Messages between instances; defaults to the transport the environment names (platform/messenger-plugin.ts). */
  messenger?: Messenger;
}

export type App = FastifyInstance;

/**
 * Builds the server in layers: external plugins (context, errors, security headers, load shedding,
 * docs, web app), then the
 * platform (auth), then the routes. Does not listen; main.ts does, tests use app.inject.
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { env, database } = options;
  installFamilies();
  // Warnings and errors are also kept in the database (platLog), batched off the request path.
  const platformLog = createPlatformLogSink(database.db);
  const app = Fastify({
    logger: { level: loggerLevelFor(env.LOG_LEVEL), stream: logDestination(env.LOG_LEVEL, platformLog) },
    // loadSheddingPlugin writes one line per request, with the time its statements waited.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdOf,
    // Only behind a proxy may X-Forwarded-For be believed; otherwise a client could pick its own address.
    trustProxy: env.TRUST_PROXY === '1',
    // Malformed URLs are refused before routing: answered in the envelope all the same.
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.decorate('platformLog', platformLog);
  // Lines still queued are written when the app closes, before its owner closes the database.
  app.addHook('onClose', () => platformLog.close());
  app.setValidatorCompiler(validatorCompiler);
  // Tests check every answer against its schema; a running server trusts what the engine built.
  app.setSerializerCompiler(createAnswerSerializerCompiler({ verify: env.NODE_ENV === 'test' }));
  // Bodies are JSON (uploads multipart, by their own plugin): plain text would reach the schemas as a
  // string and answer 400, where a content type nobody reads is a 415 (ASVS 13.1.5).
  app.removeContentTypeParser('text/plain');

  const clock = options.clock ?? systemClock;
  await app.register(contextPlugin, {
    db: database.db,
    dbKind: database.kind,
    env,
    clock,
    sms: options.smsProvider ?? createSmsProvider(env, database.db, app.log),
  });
  await app.register(messengerPlugin, { messenger: options.messenger });
  await app.register(paymentsPlugin, { payments: createPaymentProviders(env, database.db, clock, app.log, options.paymentProviders) });
  await app.register(requestIdPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(loadSheddingPlugin, {
    queue: database.queue,
    maxEventLoopDelayMs: env.SHED_EVENT_LOOP_DELAY_MS,
    maxEventLoopUtilization: env.SHED_EVENT_LOOP_UTILIZATION / 100,
    utilizationMinInFlight: env.SHED_UTILIZATION_MIN_IN_FLIGHT,
    maxDbQueue: env.SHED_DB_QUEUE,
    maxDbWaitMs: env.SHED_DB_WAIT_MS,
    maxInFlight: env.SHED_MAX_IN_FLIGHT,
    logEveryCall: writesInfo(env.LOG_LEVEL),
  });
  await app.register(uploadsPlugin, { storage: options.uploadStorage });
  await app.register(mediaUrlsPlugin);
  await app.register(terminalSecretsPlugin);
  await app.register(swaggerPlugin);
  await app.register(webAppPlugin, { root: options.webRoot });
  await app.register(callerMemoryPlugin);
  await app.register(authPlugin, { lookupSession: options.lookupSession });
  await app.register(searchCountsPlugin);

  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(homeRoutes);
  await app.register(userRoutes);
  await app.register(accountOptionsRoutes);
  await app.register(permissionRoutes);
  await app.register(resourceRoutes);
  await app.register(reportRoutes);
  await app.register(fileRoutes);
  await app.register(payRoutes);
  await app.register(intakeRoutes);
  await app.register(personSearchRoutes);
  await app.register(openApiRoutes);
  await app.register(preferenceRoutes);
  await app.register(appChannelRoutes);
  await app.register(liveRoutes);
  return app;
}
