/**
 * jsc, the school cockpit (issue 31): one school's day — arrived, left, absent, late and left early
 * against its school days (holidayManage), fever alerts, devices offline and the last recognitions with
 * their snapshots. Read from the attendance rollups and a few indexed rows of the school, so the page
 * may ask again every few seconds.
 */
import { z } from 'zod';
import { idSchema } from '../integer-schemas.js';

export const COCKPIT_PATH = '/api/DiscernStatistics/Cockpit';
/** How often the cockpit is polled while the live stream is lost (one hook on the web: use-cockpit). */
export const COCKPIT_REFRESH_MS = 15_000;
/** How many of the last recognitions the cockpit shows. */
export const COCKPIT_RECENT = 12;

export const cockpitQuerySchema = z.object({ schoolId: idSchema.optional() });

export const cockpitAnswerSchema = z.object({
  /** The school shown: the one asked, else the first of the caller's scope; null when the scope has none. */
  school: z.object({ id: z.number(), name: z.string() }).nullable(),
  day: z.string(),
  isSchoolDay: z.boolean(),
  enrolled: z.number(),
  arrived: z.number(),
  left: z.number(),
  absent: z.number(),
  late: z.number(),
  leftEarly: z.number(),
  recognitions: z.number(),
  failed: z.number(),
  /** Whether the attendance job has rolled up the school's day yet (false: figures wait for its next run). */
  rolledUp: z.boolean(),
  fevers: z.array(z.object({ id: z.number(), personName: z.string().nullable(), temperature: z.number(), recognizedAt: z.string() })),
  devices: z.object({ total: z.number(), offline: z.number() }),
  offlineDevices: z.array(z.object({ id: z.number(), serialNumber: z.string().nullable(), lastSeenAt: z.string().nullable() })),
  recent: z.array(
    z.object({
      id: z.number(),
      personName: z.string().nullable(),
      personKind: z.number(),
      direction: z.number(),
      success: z.boolean(),
      recognizedAt: z.string(),
      snapshot: z.string().nullable(),
    }),
  ),
});
export type CockpitAnswer = z.infer<typeof cockpitAnswerSchema>;
