/**
 * Notices from the gates: in the intake's own transaction, each stored successful recognition of a
 * student makes one notice per parent receiving that child while the child is in service (paid,
 * in the parent's trial, or free by the school's mode), rendered from the school's enabled template
 * of the kind, else the default one (no school), else FALLBACK_NOTICE_TEXTS. Arrival or departure
 * follows the recognition's direction. One INSERT … SELECT per batch, with the push outbox rows for
 * the parents' devices in the same statement; the unique (parent, child, kind, minute) drops repeats
 * within a minute and a retried batch stores no event again, so no notice is made twice.
 */
import { FALLBACK_NOTICE_TEXTS, NOTICE_KIND_ARRIVAL, NOTICE_KIND_DEPARTURE, type OpenRecognitionEvent } from '@campus/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { FREE_MODES } from './service.js';

const STUDENT_KIND = 1;
const OUT = 2;

/** The placeholders a recognition's notice fills; the others of the template catalogue are left empty. */
const rendered = (text: SQL): SQL => sql`replace(replace(replace(replace(replace(replace(replace(replace(${text},
  '{studentName}', s.name), '{parentName}', p.name), '{schoolName}', sch.school_name), '{className}', coalesce(sc.class_name, '')),
  '{time}', k.at_text), '{temperature}', coalesce(e.temp::text, '')), '{amount}', ''), '{pickUpPerson}', '')`;

/** Writes the notices (and their pushes) of a batch's newly stored recognitions; answers how many of each. */
export async function enqueueParentNotices(tx: Executor, events: readonly OpenRecognitionEvent[], now: Date): Promise<{ notices: number; pushes: number }> {
  const children = events.filter((event) => event.personKind === STUDENT_KIND && event.success && event.personId !== null && event.personId !== undefined);
  if (children.length === 0) return { notices: 0, pushes: 0 };
  // One JSON parameter for the batch's children (json_to_recordset), not six parameters per event to build and parse.
  const rows = JSON.stringify(children.map((event) => ({ rid: event.id, sid: event.personId, at: event.recognizedAt, dir: event.direction, snap: event.snapshot, temp: event.temperature ?? null })));
  const fallback = (field: 'title' | 'content') =>
    sql`case k.kind when ${NOTICE_KIND_DEPARTURE}::int then ${FALLBACK_NOTICE_TEXTS[NOTICE_KIND_DEPARTURE]![field]} else ${FALLBACK_NOTICE_TEXTS[NOTICE_KIND_ARRIVAL]![field]}::text end`;
  const result = (await tx.execute(sql`
    with e as (select * from json_to_recordset(${rows}::json) as e(rid int, sid int, at timestamptz, dir int, snap text, temp float8)),
    n as (
      insert into parent_notices (created_at, parent_id, student_id, school_id, kind, title, content, recognized_at, minute, recognition_id, snapshot)
      select ${now.toISOString()}::timestamptz, r.parent_id, e.sid, s.school_id, k.kind,
        left(${rendered(sql`coalesce(t.title, ${fallback('title')})`)}, 100), left(${rendered(sql`coalesce(t.content, ${fallback('content')})`)}, 500),
        e.at, date_trunc('minute', e.at), e.rid, e.snap
      from e
      cross join lateral (select case when e.dir = ${OUT}::int then ${NOTICE_KIND_DEPARTURE}::int else ${NOTICE_KIND_ARRIVAL}::int end as kind,
        to_char((e.at at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD HH24:MI') as at_text,
        ((e.at at time zone 'UTC') + interval '8 hours')::date as day) k
      join students s on s.id = e.sid
      join schools sch on sch.id = s.school_id
      join service_receivers r on r.student_id = e.sid and r.active and r.receiving
      join parents p on p.id = r.parent_id and p.enabled
      left join student_services ss on ss.student_id = e.sid
      left join service_configs c on c.school_id = s.school_id
      left join school_classes sc on sc.id = s.class_id
      left join lateral (
        select t.title, t.content from app_notice_templates t
        where t.enabled and t.kind = k.kind and (t.school_id = s.school_id or t.school_id is null)
        order by t.school_id is null, t.id desc limit 1) t on true
      where ss.service_to >= k.day or r.trial_to >= k.day or (c.enabled and c.mode in (${sql.raw(FREE_MODES.join(', '))}))
      on conflict do nothing
      returning id, parent_id, title, content),
    pushed as (
      insert into push_deliveries (created_at, parent_id, notice_id, platform, token, title, content, state, attempts, next_attempt_at)
      select ${now.toISOString()}::timestamptz, n.parent_id, n.id, pt.platform, pt.token, n.title, n.content, 'pending', 0, ${now.toISOString()}::timestamptz
      from n join push_tokens pt on pt.parent_id = n.parent_id
      returning 1)
    select (select count(*) from n) as notices, (select count(*) from pushed) as pushes`)) as unknown as { rows: { notices: unknown; pushes: unknown }[] };
  return { notices: Number(result.rows[0]?.notices ?? 0), pushes: Number(result.rows[0]?.pushes ?? 0) };
}
