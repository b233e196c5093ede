/** The split rule in force for a school on a day: the latest rule effective on or before that day. */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { COMPANY_ONLY_SPLIT, type SplitPercents } from './ledger.js';

/**
 * The percentages a payment of the school paid on `day` ('YYYY-MM-DD', Shanghai) is split by; a
 * school without a service config or without a rule yet keeps everything with the company.
 */
export async function splitRuleInForce(db: Executor, schoolId: number, day: string): Promise<SplitPercents> {
  const found = (await db.execute(sql`
    select r.company_percent as "companyPercent", r.agent_percent as "agentPercent", r.school_percent as "schoolPercent"
    from service_config_split_rules r join service_configs c on c.id = r.service_config_id
    where c.school_id = ${schoolId} and r.effective_from <= ${day}::date
    order by r.effective_from desc, r.line_no desc limit 1`)) as unknown as { rows: Record<string, unknown>[] };
  const row = found.rows[0];
  if (!row) return COMPANY_ONLY_SPLIT;
  return { companyPercent: Number(row.companyPercent), agentPercent: Number(row.agentPercent), schoolPercent: Number(row.schoolPercent) };
}
