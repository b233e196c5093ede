/**
 * GET /api/AppVersion/Latest: the parent and teacher apps ask it at start, before anyone signs in,
 * so it is public. It answers the newest enabled release above the caller's version code, forced
 * when any enabled release the caller would skip is forced (a forced fix cannot be jumped over).
 */
import { API_PATHS, AppVersion, appVersionLatestQuerySchema, appVersionLatestSchema, type AppVersionLatest } from '@campus/contract';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { appVersions } from '../db/schema/resources.js';
import type { MediaUrlSigner } from '../platform/media-urls.js';
import { familyCall } from './engine/calls.js';
import { defineFamilyModule } from './engine/modules.js';

/** The newest enabled version above `versionCode` of one app on one OS, or null when the caller is up to date. */
export async function latestAppVersion(
  db: Database,
  query: { osType: number; appType: number; versionCode: number },
  signer: MediaUrlSigner,
): Promise<AppVersionLatest | null> {
  const newer = and(
    eq(appVersions.osType, query.osType),
    eq(appVersions.appType, query.appType),
    eq(appVersions.isEnabled, true),
    gt(appVersions.versionCode, query.versionCode),
  );
  // Both reads walk the unique (os, app, code) index from the caller's code upwards.
  const [row] = await db
    .select({
      versionNumber: appVersions.versionNumber,
      versionCode: appVersions.versionCode,
      updateContent: appVersions.updateContent,
      downloadUrl: appVersions.downloadUrl,
      isForceUpgrade: sql<boolean>`(select coalesce(bool_or(${appVersions.isForceUpgrade}), false) from ${appVersions} where ${newer})`,
    })
    .from(appVersions)
    .where(newer)
    .orderBy(desc(appVersions.versionCode))
    .limit(1);
  if (!row) return null;
  return {
    versionNumber: String(row.versionNumber),
    versionCode: Number(row.versionCode),
    updateContent: String(row.updateContent ?? ''),
    downloadUrl: signer.sign(String(row.downloadUrl ?? '')),
    isForceUpgrade: row.isForceUpgrade === true,
  };
}

export const appVersionRoutes = familyCall(
  {
    tag: AppVersion.name,
    verb: 'Latest',
    path: API_PATHS.appVersionLatest,
    access: 'public',
    summary: 'The newest enabled app version above the caller’s version code (null when up to date); public, asked by the apps at start',
    query: appVersionLatestQuerySchema,
    answer: appVersionLatestSchema.nullable(),
  },
  async ({ app, query }) => latestAppVersion(app.db, query, await app.mediaUrls()),
);

export const appVersionModule = defineFamilyModule(AppVersion, { routes: [appVersionRoutes] });
