import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOBILE_PHONE_PATTERN } from '@campus/contract';
import { z } from 'zod';

/**
 * apps/server. This module sits one folder below it, in src/ and, bundled, in dist/: every path the
 * server reads from its own tree (migrations, the web build) is taken from here, so the compiled
 * server finds the same files as the source one.
 */
export const SERVER_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The repository root, two folders above apps/server. */
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');

/** DATA_DIR value that keeps PGlite in memory (tests); no directory and no lock. */
export const IN_MEMORY_DATA_DIR = 'memory://';

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses durations such as 30m, 12h, 1d, 90s into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)\s*(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  return amount > 0 ? amount * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS] : undefined;
}

/**
 * A relative DATA_DIR is taken from where the user typed the command: npm sets INIT_CWD to that
 * folder, while the server itself runs with apps/server as its working directory.
 */
function resolveDataDir(value: string | undefined, source: NodeJS.ProcessEnv): string {
  if (value === IN_MEMORY_DATA_DIR) return value;
  if (!value) return path.join(REPO_ROOT, 'data');
  return path.resolve(source.INIT_CWD ?? process.cwd(), value);
}

/**
 * Uploads live beside the embedded database unless UPLOAD_DIR says otherwise. An in-memory database
 * (tests) keeps nothing, so its uploads go to the system's temporary folder.
 */
function resolveUploadDir(value: string | undefined, dataDir: string, source: NodeJS.ProcessEnv): string {
  if (value) return path.resolve(source.INIT_CWD ?? process.cwd(), value);
  if (dataDir === IN_MEMORY_DATA_DIR) return path.join(os.tmpdir(), 'campus-ops-uploads');
  return path.join(dataDir, 'uploads');
}

/** PEM given in one line of an env file, with `\n` for its line breaks. */
const unescapeNewlines = (text: string) => text.replace(/\\n/g, '\n');

function isPrivateKey(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

function isPublicKeyOrCertificate(pem: string): boolean {
  try {
    if (pem.includes('BEGIN CERTIFICATE')) new X509Certificate(pem);
    else createPublicKey(pem);
    return true;
  } catch {
    return false;
  }
}

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalText = z.preprocess(emptyAsUndefined, z.string().optional());
const megabytes = (fallback: number) =>
  z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number of megabytes' })
      .positive('must be a number of megabytes above 0')
      .max(100_000, 'must be a number of megabytes up to 100000')
      .default(fallback),
  );

/** A limit of the load shedding: a whole number, 0 switching that check off. */
const sheddingLimit = (fallback: number, unit: string) =>
  z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: `must be a number of ${unit} (0 = off)` })
      .int(`must be a whole number of ${unit} (0 = off)`)
      .min(0, `must be a number of ${unit} (0 = off)`)
      .default(fallback),
  );

const envSchema = z
  .object({
    NODE_ENV: z.preprocess(emptyAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
    PORT: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a port number between 1 and 65535' })
        .int('must be a port number between 1 and 65535')
        .min(1, 'must be a port number between 1 and 65535')
        .max(65535, 'must be a port number between 1 and 65535')
        .default(8080),
    ),
    HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
    DATA_DIR: optionalText,
    DATABASE_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
        .optional(),
    ),
    TOKEN_TTL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default('30m')
        .refine((text) => parseDuration(text) !== undefined, 'must be a duration such as 30m, 12h or 1d'),
    ),
    /** The absolute lifetime of a session, however much it is used (ASVS 3.3.2); TOKEN_TTL is the idle one. */
    SESSION_MAX_AGE: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default('12h')
        .refine((text) => parseDuration(text) !== undefined, 'must be a duration such as 30m, 12h or 1d'),
    ),
    CAPTCHA_FIXED_CODE: z.preprocess(emptyAsUndefined, z.string().min(1).max(16).optional()),
    SEED_DEMO: z.preprocess(emptyAsUndefined, z.enum(['0', '1']).optional()),
    ADMIN_INITIAL_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8, 'must be at least 8 characters').optional()),
    /** Mobile of the first admin: its forced password change at first login is confirmed by SMS. */
    ADMIN_INITIAL_PHONE: z.preprocess(emptyAsUndefined, z.string().regex(MOBILE_PHONE_PATTERN, 'must be an 11-digit mobile number').optional()),
    /** '1' behind a load balancer: the client address (per-address login limit) is read from X-Forwarded-For. */
    TRUST_PROXY: z.preprocess(emptyAsUndefined, z.enum(['0', '1']).default('0')),
    LOG_LEVEL: z.preprocess(
      emptyAsUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    UPLOAD_DIR: optionalText,
    /**
     * Key sealing the terminals' secrets (AES-256-GCM): 32 bytes as 64 hex digits or base64. Unset, a
     * key is created once and kept in the settings table (docs/decisions.md "Terminal secrets are sealed").
     */
    TERMINAL_SECRET_KEY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .refine((text) => /^[0-9a-fA-F]{64}$/.test(text) || Buffer.from(text, 'base64').length === 32, 'must be 32 bytes as 64 hex digits or base64')
        .optional(),
    ),
    /**
     * Hosts (names or IP literals, comma-separated) developer callbacks may reach although they are
     * internal addresses. Unset: none in production, `localhost,127.0.0.1,::1` otherwise (demo, tests);
     * empty: none, also outside production.
     */
    CALLBACK_ALLOWED_HOSTS: z.string().max(2000).optional(),
    /** Largest image UploadImgs stores, in megabytes (fractions allowed). */
    UPLOAD_IMAGE_MAX_MB: megabytes(5),
    /** Largest video UploadVideos stores, in megabytes. */
    UPLOAD_VIDEO_MAX_MB: megabytes(200),
    /** Largest app or firmware package UploadPackages stores, in megabytes. */
    UPLOAD_PACKAGE_MAX_MB: megabytes(512),
    /**
     * What the files uploaded within one scope (an agent with its child accounts, a sales person, an
     * external user) may add up to, in megabytes; company staff, the operator, are not counted (ASVS 12.1.3).
     */
    UPLOAD_SCOPE_QUOTA_MB: megabytes(2048),
    /**
     * A ClamAV daemon that scans every upload before it is stored (ASVS 12.4.2): `host:port` or a Unix
     * socket path. Unset: no scan. Set: an upload fails closed (503) while the daemon cannot answer.
     */
    CLAMD_ADDRESS: optionalText,
    /** Load shedding (503 + Retry-After): the event loop's delay above which new API calls are refused. */
    SHED_EVENT_LOOP_DELAY_MS: sheddingLimit(1000, 'milliseconds'),
    /** Statements (PGlite) or pool checkouts (PostgreSQL) waiting for a connection above which calls are refused. */
    SHED_DB_QUEUE: sheddingLimit(50, 'statements'),
    /**
     * A Search whose page is full counts its matches (up to 10,001) only when the planner puts that
     * count at or under this cost; above it, a count to a lower bound within the cost ("more than
     * N"), or the rows the page proves (engine/search-counts.ts). A report's groups answer the
     * planner's estimate above it. 0: never count a full page.
     */
    SEARCH_COUNT_COST_LIMIT: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a planner cost (0 = never count)' })
        .min(0, 'must be a planner cost (0 = never count)')
        .default(5000),
    ),
    /** How long the oldest waiting statement may have waited before calls are refused. */
    SHED_DB_WAIT_MS: sheddingLimit(500, 'milliseconds'),
    /** Share of time (percent) the event loop was busy in the last sample above which calls are refused, while calls queue. */
    SHED_EVENT_LOOP_UTILIZATION: sheddingLimit(90, 'percent').pipe(z.number().max(100, 'must be a percentage up to 100 (0 = off)')),
    /** API calls in flight from which a busy event loop (SHED_EVENT_LOOP_UTILIZATION) counts as a queue. */
    SHED_UTILIZATION_MIN_IN_FLIGHT: sheddingLimit(8, 'calls'),
    /** API calls being answered at once above which new ones are refused. */
    SHED_MAX_IN_FLIGHT: sheddingLimit(0, 'calls'),
    // Set: the messenger between instances (live updates) runs over Redis pub/sub instead of
    // PostgreSQL LISTEN/NOTIFY (platform/messenger-plugin.ts). Rate-limit counters stay in PostgreSQL.
    /**
     * 1: each instance keeps its callers' sessions, grants, scopes and probes in memory, dropped
     * through the messenger when the database says any changed (platform/caller-memory.ts; PostgreSQL's
     * messenger only). 0: the session is read on every call. Unset: on, but under NODE_ENV=test, whose
     * suites change the database behind the API's back and expect the very next call to see it.
     */
    CALLER_MEMORY: z.preprocess(emptyAsUndefined, z.enum(['0', '1']).optional()),
    /** Seconds between the live stream's heartbeats, each of which checks the session again (docs/live.md). */
    LIVE_HEARTBEAT_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number({ error: 'must be seconds from 1 to 300' }).int().min(1).max(300).default(15)),
    REDIS_URL: z.preprocess(emptyAsUndefined, z.string().regex(/^rediss?:\/\//, 'must start with redis://').optional()),
    /** The provider new payments go to: `demo` settles at once (demo, tests); `wechatpay` needs the WECHATPAY_* variables. */
    PAYMENT_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(['demo', 'wechatpay']).default('demo')),
    WECHATPAY_MCH_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{8,12}$/, 'must be the merchant id (digits)').optional()),
    WECHATPAY_APP_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^wx[0-9a-zA-Z]{16}$/, 'must be an app id such as wx0123456789abcdef').optional()),
    /** Serial number of the merchant API certificate. */
    WECHATPAY_CERT_SERIAL: z.preprocess(emptyAsUndefined, z.string().regex(/^[0-9A-Fa-f]{8,64}$/, 'must be the certificate serial number (hex)').optional()),
    /** The merchant's API private key, PEM (newlines may be written as \n). */
    WECHATPAY_PRIVATE_KEY: z.preprocess(emptyAsUndefined, z.string().transform(unescapeNewlines).refine(isPrivateKey, 'must be a PEM private key').optional()),
    WECHATPAY_APIV3_KEY: z.preprocess(emptyAsUndefined, z.string().refine((key) => Buffer.byteLength(key, 'utf8') === 32, 'must be 32 characters').optional()),
    /** The platform certificate (or WeChat Pay public key), PEM, that signs answers and notifications. */
    WECHATPAY_PLATFORM_CERT: z.preprocess(emptyAsUndefined, z.string().transform(unescapeNewlines).refine(isPublicKeyOrCertificate, 'must be a PEM certificate or public key').optional()),
    /** When set, answers and notifications signed under another platform serial are refused. */
    WECHATPAY_PLATFORM_SERIAL: z.preprocess(emptyAsUndefined, z.string().regex(/^[0-9A-Za-z_]{8,64}$/, 'must be the platform serial').optional()),
    /** The public address of POST /api/Pay/Notify/WechatPay, sent with each payment and refund. */
    WECHATPAY_NOTIFY_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https$/, error: 'must be an https:// address' }).optional()),
    WECHATPAY_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: 'must be an http(s):// address' }).default('https://api.mch.weixin.qq.com')),
    SMS_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(['outbox', 'tencent']).default('outbox')),
    TENCENT_SMS_SECRET_ID: z.preprocess(emptyAsUndefined, z.string().min(8, 'must be a SecretId').optional()),
    TENCENT_SMS_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(8, 'must be a SecretKey').optional()),
    TENCENT_SMS_SDK_APP_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{6,12}$/, 'must be the SmsSdkAppId (digits)').optional()),
    TENCENT_SMS_SIGN_NAME: z.preprocess(emptyAsUndefined, z.string().max(60).optional()),
    TENCENT_SMS_TEMPLATE_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{1,12}$/, 'must be the verification-code template id (digits)').optional()),
    TENCENT_SMS_REGION: z.preprocess(emptyAsUndefined, z.string().regex(/^[a-z]+(-[a-z]+)+$/, 'must be a region such as ap-guangzhou').default('ap-guangzhou')),
    TENCENT_SMS_ENDPOINT: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: 'must be an http(s):// address' }).default('https://sms.tencentcloudapi.com')),
    /** JPush (极光推送) keys: both set, parents' pushes go through JPush's v3 push API; unset, into the push outbox only. */
    JPUSH_APP_KEY: z.preprocess(emptyAsUndefined, z.string().regex(/^[0-9a-f]{24}$/, 'must be the 24-hex-digit AppKey').optional()),
    JPUSH_MASTER_SECRET: z.preprocess(emptyAsUndefined, z.string().regex(/^[0-9a-f]{24}$/, 'must be the 24-hex-digit Master Secret').optional()),
    /** JPush's push endpoint (a test points it at a local server). */
    JPUSH_ENDPOINT: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: 'must be an http(s):// address' }).default('https://api.jpush.cn/v3/push')),
    /** How long one call to WeChat Pay may take before its outcome counts as unknown. */
    WECHATPAY_TIMEOUT: z.preprocess(
      emptyAsUndefined,
      z.string().default('10s').refine((text) => parseDuration(text) !== undefined, 'must be a duration such as 10s'),
    ),
  })
  .superRefine((env, context) => {
    if (env.PAYMENT_PROVIDER === 'wechatpay' || env.WECHATPAY_MCH_ID !== undefined) {
      // A half-configured provider would fail on the first refund, not at boot: name the missing piece now.
      for (const name of WECHATPAY_REQUIRED) {
        if (env[name] === undefined) context.addIssue({ code: 'custom', path: [name], message: 'is required when WeChat Pay is configured (PAYMENT_PROVIDER=wechatpay or WECHATPAY_MCH_ID set)' });
      }
    }
    if (env.SMS_PROVIDER === 'tencent') {
      for (const name of TENCENT_SMS_REQUIRED) {
        if (env[name] === undefined) context.addIssue({ code: 'custom', path: [name], message: 'is required when SMS_PROVIDER=tencent' });
      }
    }
    if ((env.JPUSH_APP_KEY === undefined) !== (env.JPUSH_MASTER_SECRET === undefined)) {
      context.addIssue({ code: 'custom', path: [env.JPUSH_APP_KEY === undefined ? 'JPUSH_APP_KEY' : 'JPUSH_MASTER_SECRET'], message: 'is required when the other JPush key is set' });
    }
    if (env.NODE_ENV === 'production' && env.CAPTCHA_FIXED_CODE !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['CAPTCHA_FIXED_CODE'],
        message: 'must not be set when NODE_ENV=production (it makes every captcha answer known)',
      });
    }
  });

const TENCENT_SMS_REQUIRED = ['TENCENT_SMS_SECRET_ID', 'TENCENT_SMS_SECRET_KEY', 'TENCENT_SMS_SDK_APP_ID', 'TENCENT_SMS_SIGN_NAME', 'TENCENT_SMS_TEMPLATE_ID'] as const;

const WECHATPAY_REQUIRED = [
  'WECHATPAY_MCH_ID',
  'WECHATPAY_APP_ID',
  'WECHATPAY_CERT_SERIAL',
  'WECHATPAY_PRIVATE_KEY',
  'WECHATPAY_APIV3_KEY',
  'WECHATPAY_PLATFORM_CERT',
  'WECHATPAY_NOTIFY_URL',
] as const;

/** WeChat Pay's settings once all of them are given (finance/providers/wechatpay.ts). */
export interface WechatPayEnv {
  mchId: string;
  appId: string;
  certSerial: string;
  privateKeyPem: string;
  apiV3Key: string;
  platformCertPem: string;
  platformSerial?: string;
  notifyUrl: string;
  baseUrl: string;
  timeoutMs: number;
}

export type Env = Omit<z.infer<typeof envSchema>, 'DATA_DIR' | 'UPLOAD_DIR'> & {
  /** WeChat Pay, when configured. */
  wechatPay?: WechatPayEnv;
  /** Absolute path of the embedded database, or IN_MEMORY_DATA_DIR. */
  DATA_DIR: string;
  /** Absolute path of the uploaded files. */
  UPLOAD_DIR: string;
  /** TOKEN_TTL in milliseconds. */
  tokenTtlMs: number;
  /** TOKEN_TTL (idle) and SESSION_MAX_AGE (absolute), in milliseconds. */
  sessionLimits: { idleMs: number; maxAgeMs: number };
};

/** Variables whose value must not be echoed in the error line. */
const SECRET_VARIABLES = new Set(['TENCENT_SMS_SECRET_KEY', 'ADMIN_INITIAL_PASSWORD', 'DATABASE_URL', 'REDIS_URL', 'CAPTCHA_FIXED_CODE', 'WECHATPAY_PRIVATE_KEY', 'WECHATPAY_APIV3_KEY']);

/** Thrown by loadEnv; its message is the one line main.ts prints before exiting. */
export class EnvError extends Error {
  override name = 'EnvError';
}

/** Reads and checks the environment once at boot; throws EnvError naming the first bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    const value = source[name];
    const given = typeof value === 'string' && !SECRET_VARIABLES.has(name) ? ` (got '${value}')` : '';
    throw new EnvError(`Invalid environment: ${name} ${issue?.message ?? 'is invalid'}${given}`);
  }
  const env = parsed.data;
  const dataDir = resolveDataDir(env.DATA_DIR, source);
  return {
    ...env,
    DATA_DIR: dataDir,
    UPLOAD_DIR: resolveUploadDir(env.UPLOAD_DIR, dataDir, source),
    tokenTtlMs: parseDuration(env.TOKEN_TTL) as number,
    sessionLimits: { idleMs: parseDuration(env.TOKEN_TTL) as number, maxAgeMs: parseDuration(env.SESSION_MAX_AGE) as number },
    wechatPay: env.WECHATPAY_MCH_ID
      ? {
          mchId: env.WECHATPAY_MCH_ID,
          // The refinement above made every required WECHATPAY_* variable present once the merchant id is.
          appId: env.WECHATPAY_APP_ID!,
          certSerial: env.WECHATPAY_CERT_SERIAL!,
          privateKeyPem: env.WECHATPAY_PRIVATE_KEY!,
          apiV3Key: env.WECHATPAY_APIV3_KEY!,
          platformCertPem: env.WECHATPAY_PLATFORM_CERT!,
          platformSerial: env.WECHATPAY_PLATFORM_SERIAL,
          notifyUrl: env.WECHATPAY_NOTIFY_URL!,
          baseUrl: env.WECHATPAY_BASE_URL.replace(/\/$/, ''),
          timeoutMs: parseDuration(env.WECHATPAY_TIMEOUT) as number,
        }
      : undefined,
  };
}
