import { USER_TYPES } from '@campus/contract';
import { and, eq } from 'drizzle-orm';
import { DEFAULT_TYPE_GRANTS } from '../platform/default-grants.js';
import { DEFAULT_TYPE_PROBES, probesTypeKey } from '../platform/probes.js';
import { SIGN_CARD_MODE_KEY } from '../platform/settings.js';
import type { Database } from '../db/client.js';
import { grants, settings } from '../db/schema/index.js';

/**
 * Rows every installation needs, demo or not: the default grant of each user type that has none
 * yet (so edits made in jurisdictionManage survive restarts), sign-card mode on, and the default
 * probes per type. Runs at every start; it only fills what is missing.
 */
export async function seedDefaults(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    for (const type of USER_TYPES) {
      const [existing] = await tx
        .select({ id: grants.id })
        .from(grants)
        .where(and(eq(grants.subjectType, 'type'), eq(grants.userType, type)))
        .limit(1);
      if (existing) continue;
      await tx.insert(grants).values(
        [...DEFAULT_TYPE_GRANTS[type]].map(([frameId, buttons]) => ({ subjectType: 'type' as const, userType: type, frameId, buttons: [...buttons] })),
      );
    }
    await tx
      .insert(settings)
      .values([
        { key: SIGN_CARD_MODE_KEY, value: true },
        ...USER_TYPES.map((type) => ({ key: probesTypeKey(type), value: DEFAULT_TYPE_PROBES[type] })),
      ])
      .onConflictDoNothing({ target: settings.key });
  });
}
