/** GET /api/AppVersion/Latest: what the parent and teacher apps ask at start (no session). */
import { z } from 'zod';
import { INT32_MAX } from '../integers.js';
import { APP_OS_TYPE_OPTIONS, APP_TYPE_OPTIONS } from '../resources/versions.js';

const optionValue = (options: readonly { value: number }[]) =>
  z.coerce
    .number()
    .int()
    .refine((value) => options.some((option) => option.value === value), { message: `one of ${options.map((option) => option.value).join(', ')}` });

export const appVersionLatestQuerySchema = z.object({
  osType: optionValue(APP_OS_TYPE_OPTIONS),
  appType: optionValue(APP_TYPE_OPTIONS),
  /** The caller's own version code; only larger ones are offered. */
  versionCode: z.coerce.number().int().min(0).max(INT32_MAX),
});
export type AppVersionLatestQuery = z.infer<typeof appVersionLatestQuerySchema>;

export const appVersionLatestSchema = z.object({
  versionNumber: z.string(),
  versionCode: z.number().int(),
  updateContent: z.string(),
  /** Signed when it is an uploaded package; an App Store address as stored. */
  downloadUrl: z.string(),
  /** True when this or any enabled version between the caller's and this one is forced. */
  isForceUpgrade: z.boolean(),
});
/** Data of Latest: the newest enabled version above the caller's, or null when it is up to date. */
export type AppVersionLatest = z.infer<typeof appVersionLatestSchema>;
