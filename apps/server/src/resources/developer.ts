/**
 * Developer rules: the app id is generated on Add; ResetSecret issues the signing secret and answers
 * it that once. It is kept sealed, not hashed, because the Open API verifies an HMAC with it and the
 * callbacks are signed with it (docs/decisions.md "Developer calls are signed with a sealed secret").
 * A callback URL must not point inward (developers/callback-address.ts). A dead callback delivery is
 * retried from its row of the delivery log (DeveloperDelivery.Retry).
 */
import { Developer, DeveloperDelivery } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { developerDeliveries } from '../db/schema/developer-callbacks.js';
import { developerDeliveryAttempts } from '../db/schema/resources.js';
import { callbackPolicyOf, isCallbackUrlAllowed } from '../developers/callback-address.js';
import { badRequest, conflict, msg, notFound } from '../platform/errors.js';
import { sealSecret } from '../platform/sealed-secrets.js';
import { defineFamilyModule } from './engine/modules.js';
import { recordOperation } from './engine/write.js';
import { rowAction } from './engine/row-actions.js';
import { deadCallbackPurgeJob, developerCallbackJob } from '../developers/callback-worker.js';

/** 128 random bits behind a prefix that says what it is. */
const newAppId = () => `dev_${randomBytes(16).toString('hex')}`;
/** 32 random bytes: the developer's HMAC key. */
const newSecret = () => randomBytes(32).toString('base64url');

export const developerModule = defineFamilyModule(Developer, {
  beforeWrite(ctx, { op, values }) {
    const url = values.callbackUrl;
    if (typeof url === 'string' && url !== '' && !isCallbackUrlAllowed(callbackPolicyOf(ctx.server.env), url)) {
      throw badRequest([{ path: 'callbackUrl', ...msg('developer.callbackInternal') }]);
    }
    return op === 'add' ? { ...values, appId: newAppId() } : values;
  },
  actions: {
    // The operation log records that a secret was issued, never the secret.
    ResetSecret: rowAction('ResetSecret', async (ctx) => {
      const secret = newSecret();
      return { values: { secretSealed: await sealSecret(ctx.db, secret), secretIssuedAt: ctx.clock.now() }, answer: { secret } };
    }),
  },
});

export const developerDeliveryModule = defineFamilyModule(DeveloperDelivery, {
  recurringJobs: [developerCallbackJob],
  dailyJobs: [deadCallbackPurgeJob],
  actions: {
    /**
     * Queues a dead delivery for one more attempt now (its attempts stay counted: should that one fail
     * too, it is dead again at once). The worker sends it at its next run under the same idempotency key.
     */
    Retry: async (ctx, id) =>
      ctx.db.transaction(async (tx) => {
        const [attempt] = await tx.select({ deliveryId: developerDeliveryAttempts.deliveryId }).from(developerDeliveryAttempts).where(eq(developerDeliveryAttempts.id, id));
        if (!attempt) throw notFound();
        const [delivery] = await tx
          .select({ id: developerDeliveries.id, state: developerDeliveries.state })
          .from(developerDeliveries)
          .where(eq(developerDeliveries.deliveryId, String(attempt.deliveryId)))
          .for('update');
        // Delivered since (its row is gone) or already queued again: nothing to retry.
        if (delivery?.state !== 'dead') throw conflict(msg('developer.callbackNotDead'));
        await tx.update(developerDeliveries).set({ state: 'pending', nextAttemptAt: ctx.clock.now(), leaseId: null }).where(eq(developerDeliveries.id, delivery.id));
        await recordOperation(tx, ctx, 'Retry', [id], { state: ['dead', 'pending'] });
        return { id, deliveryId: String(attempt.deliveryId), state: 'pending' };
      }),
  },
});
