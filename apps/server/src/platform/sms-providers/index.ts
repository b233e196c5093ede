/** The SMS provider the environment chooses: SMS_PROVIDER=outbox (default, the demo) or tencent. */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Env } from '../../env.js';
import { OutboxSmsProvider, type SmsProvider } from '../sms.js';
import { TencentSmsProvider } from './tencent.js';

/** Builds the provider named by SMS_PROVIDER; the environment check made sure its settings are all there. */
export function createSmsProvider(env: Env, db: Database, log: FastifyBaseLogger): SmsProvider {
  if (env.SMS_PROVIDER === 'tencent') {
    return new TencentSmsProvider(
      {
        secretId: env.TENCENT_SMS_SECRET_ID!,
        secretKey: env.TENCENT_SMS_SECRET_KEY!,
        sdkAppId: env.TENCENT_SMS_SDK_APP_ID!,
        signName: env.TENCENT_SMS_SIGN_NAME!,
        templateId: env.TENCENT_SMS_TEMPLATE_ID!,
        region: env.TENCENT_SMS_REGION,
        endpoint: env.TENCENT_SMS_ENDPOINT,
      },
      log,
    );
  }
  return new OutboxSmsProvider(db, log);
}
