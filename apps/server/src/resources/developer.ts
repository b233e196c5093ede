/**
 * Developer rules: the app id is generated on Add; ResetSecret issues the signing secret and answers
 * it that once. It is kept sealed, not hashed, because the Open API verifies an HMAC with it
 * (docs/decisions.md "Developer calls are signed with a sealed secret").
 */
import { Developer } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { developers } from '../db/schema/resources.js';
import { sealSecret } from '../platform/sealed-secrets.js';
import { columnOf } from './engine/query.js';
import { defineFamilyHooks } from './engine/hooks.js';
import { loadInScope, recordOperation } from './engine/write.js';

/** 128 random bits behind a prefix that says what it is. */
const newAppId = () => `dev_${randomBytes(16).toString('hex')}`;
/** 32 random bytes: the developer's HMAC key. */
const newSecret = () => randomBytes(32).toString('base64url');

export const developerHooks = defineFamilyHooks(Developer, {
  beforeWrite(_ctx, { op, values }) {
    return op === 'add' ? { ...values, appId: newAppId() } : values;
  },
  actions: {
    async ResetSecret(ctx, id) {
      const secret = newSecret();
      const issuedAt = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        const existing = await loadInScope({ ...ctx, db: tx }, tx, id, true);
        await tx
          .update(developers)
          .set({ secretSealed: await sealSecret(tx, secret), secretIssuedAt: issuedAt, version: sql`${columnOf(developers, 'version')} + 1`, updatedAt: issuedAt })
          .where(eq(columnOf(developers, 'id'), id));
        // The operation log records that a secret was issued, never the secret.
        await recordOperation(tx, ctx, 'ResetSecret', [id], { secretIssuedAt: [existing.secretIssuedAt ?? null, issuedAt.toISOString()] });
      });
      return { secret };
    },
  },
});
