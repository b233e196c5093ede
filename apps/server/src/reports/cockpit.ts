/**
 * GET /api/DiscernStatistics/Cockpit (jsc): one school's day for the cockpit. The day's figures come
 * from the attendance rollups (one school-day row, the school's student-day rows for "left"); fever
 * alerts, devices and the last recognitions are a few rows of the school read by their indexes.
 */
import { COCKPIT_PATH, COCKPIT_RECENT, cockpitAnswerSchema, cockpitQuerySchema, formatBusinessDate, frameOf, type CockpitAnswer } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/client.js';
import { getRequestState } from '../platform/caller-state.js';
import { ok } from '../platform/envelope.js';
import { forbidden } from '../platform/errors.js';
import { documentedCall } from '../platform/route-docs.js';
import { isSchoolDay } from '../platform/school-days.js';
import { isInScope, scopeCondition } from '../platform/scope.js';

const JSC = frameOf('jsc').fixedId;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

export async function cockpitRoutes(parent: FastifyInstance): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    COCKPIT_PATH,
    { schema: { ...documentedCall('DiscernStatistics', 'Cockpit', "One school's day for the school cockpit (jsc)", cockpitAnswerSchema), querystring: cockpitQuerySchema } },
    async (request) => {
      const { grant, scope } = await getRequestState(request);
      if (!grant.has(JSC)) throw forbidden();
      const { db } = request.server;
      const now = request.server.clock.now();
      const day = formatBusinessDate(now);
      const asked = request.query.schoolId;
      if (asked !== undefined && !isInScope(scope, asked)) throw forbidden();
      const [school] = await rowsOf<{ id: number; name: string }>(
        db,
        asked !== undefined
          ? sql`select id, school_name as name from schools where id = ${asked}`
          : sql`select id, school_name as name from schools where ${scopeCondition(scope, sql`id`)} order by id limit 1`,
      );
      const empty: CockpitAnswer = {
        school: null, day, isSchoolDay: false, enrolled: 0, arrived: 0, left: 0, absent: 0, late: 0, leftEarly: 0, recognitions: 0, failed: 0,
        rolledUp: false, fevers: [], devices: { total: 0, offline: 0 }, offlineDevices: [], recent: [],
      };
      if (!school) return ok(empty);
      const [[today], [left], fevers, [devices], offlineDevices, recent, schoolDay, [roll]] = await Promise.all([
        rowsOf<{ work_day: boolean; enrolled: number; present: number; late: number; left_early: number; recognitions: number; failed: number }>(
          db,
          sql`select work_day, enrolled, present, late, left_early, recognitions, failed from attendance_school_days where school_id = ${school.id} and day = ${day}::date`,
        ),
        rowsOf<{ n: number }>(db, sql`select count(*)::int as n from attendance_student_days where school_id = ${school.id} and day = ${day}::date and last_out is not null`),
        rowsOf<{ id: number; person_name: string | null; temperature: number; recognized_at: Date }>(
          db,
          sql`select id, person_name, temperature, recognized_at from fever_alerts
            where school_id = ${school.id} and recognized_at >= (${day}::date)::timestamp at time zone 'Asia/Shanghai' order by recognized_at desc, id desc limit 20`,
        ),
        rowsOf<{ total: number; offline: number }>(
          db,
          sql`select count(*)::int as total, count(*) filter (where offline_at is null or offline_at < ${now})::int as offline from terminals where school_id = ${school.id} and enabled`,
        ),
        rowsOf<{ id: number; serial_number: string | null; last_seen_at: Date | null }>(
          db,
          sql`select id, serial_number, last_seen_at from terminals where school_id = ${school.id} and enabled and (offline_at is null or offline_at < ${now}) order by last_seen_at desc nulls last limit 20`,
        ),
        rowsOf<{ id: number; person_name: string | null; person_kind: number; direction: number; success: boolean; recognized_at: Date; snapshot: string | null }>(
          db,
          sql`select id, person_name, person_kind, direction, success, recognized_at, snapshot from recognition_records
            where school_id = ${school.id} and recognized_at >= (${day}::date - 1)::timestamp at time zone 'Asia/Shanghai' order by recognized_at desc, id desc limit ${COCKPIT_RECENT}`,
        ),
        isSchoolDay(db, school.id, day),
        // The roll before the job's first run of the day makes the school's row.
        rowsOf<{ n: number }>(db, sql`select count(*)::int as n from students where school_id = ${school.id} and state = 1`),
      ]);
      const signer = await request.server.mediaUrls();
      const work = today?.work_day ?? schoolDay;
      const enrolled = today?.enrolled ?? roll?.n ?? 0;
      const present = today?.present ?? 0;
      return ok({
        school,
        day,
        isSchoolDay: work,
        enrolled: work ? enrolled : 0,
        arrived: present,
        left: left?.n ?? 0,
        absent: work ? Math.max(enrolled - present, 0) : 0,
        late: work ? (today?.late ?? 0) : 0,
        leftEarly: work ? (today?.left_early ?? 0) : 0,
        recognitions: today?.recognitions ?? 0,
        failed: today?.failed ?? 0,
        rolledUp: today !== undefined,
        fevers: fevers.map((row) => ({ id: row.id, personName: row.person_name, temperature: Number(row.temperature), recognizedAt: iso(row.recognized_at) })),
        devices: { total: devices?.total ?? 0, offline: devices?.offline ?? 0 },
        offlineDevices: offlineDevices.map((row) => ({ id: row.id, serialNumber: row.serial_number, lastSeenAt: row.last_seen_at ? iso(row.last_seen_at) : null })),
        recent: recent.map((row) => ({
          id: row.id,
          personName: row.person_name,
          personKind: row.person_kind,
          direction: row.direction,
          success: row.success,
          recognizedAt: iso(row.recognized_at),
          snapshot: row.snapshot ? signer.sign(row.snapshot) : null,
        })),
      });
    },
  );
}
