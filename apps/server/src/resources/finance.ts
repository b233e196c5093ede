/**
 * Finance rules on writes (split rules dividing a payment whole are declared on their lines): fund
 * accounts keep who they belong to, are never deleted once they have entries and change balance only
 * by posted entries.
 */
import { AgentFund, FUND_ACCOUNT_COMPANY, FUND_ACCOUNT_SCHOOL, FUND_ENTRY_ADJUSTMENT, PaymentRecord, SchoolCharge, ServiceConfig, formatBusinessDate } from '@campus/contract';
import { applyPaymentNotification } from '../finance/payment-notifications.js';
import { withAlbumOrderPayments } from './album.js';
import { withMarketOrderPayments } from './mall.js';
import { eq, sql, type SQL } from 'drizzle-orm';
import { intArray } from '../platform/sql-terms.js';
import { schoolParentFigures } from '../parents/figures.js';
import { bindChildrenOfSchool } from '../parents/service.js';
import { accountKeyOf, postEntries, type FundAccountType } from '../finance/ledger.js';
import { badRequest, forbidden, msg } from '../platform/errors.js';
import { serviceConfigs, serviceConfigSplitRules } from '../db/schema/resources.js';
import { hashPassword } from '../platform/passwords.js';
import { defineFamilyModule } from './engine/modules.js';
import { columnOf } from './engine/query.js';
import type { ResourceTable } from '../db/schema/table.js';
import { rowAction } from './engine/row-actions.js';

/**
 * Merchants without any split rule: every payment stays with the company. The `splitRuleUnset`
 * badge counts these rows and the `splitRuleSet: false` filter lists them, so the two cannot disagree.
 */
export function splitRuleMissingCondition(table: ResourceTable): SQL {
  return sql`not exists (select 1 from ${serviceConfigSplitRules} r where r.service_config_id = ${columnOf(table, 'id')})`;
}


export const serviceConfigModule = defineFamilyModule(ServiceConfig, {
  pending: { badge: 'splitRuleUnset', where: splitRuleMissingCondition, filter: { name: 'splitRuleSet', pending: false } },
  // The school's parents in service, in trial and lapsed today (parents/figures.ts).
  async afterRead(ctx, rows) {
    const figures = await schoolParentFigures(ctx.db, [...new Set(rows.map((row) => Number(row.schoolId)))], formatBusinessDate(ctx.clock.now()));
    const none = { parentsInService: 0, parentsInTrial: 0, parentsLapsed: 0 };
    return rows.map((row) => ({ ...row, ...(figures.get(Number(row.schoolId)) ?? none) }));
  },
  // A changed number of receiving places or mode applies to the school's children at once.
  async afterWrite(ctx, { op, ids, values }) {
    if (op !== 'update' || (values.parentCount === undefined && values.mode === undefined)) return;
    const [config] = await ctx.db.select({ schoolId: serviceConfigs.schoolId }).from(serviceConfigs).where(eq(serviceConfigs.id, ids[0]!));
    if (config?.schoolId) await bindChildrenOfSchool(ctx.db, Number(config.schoolId), ctx.clock.now());
  },
});

export const agentFundModule = defineFamilyModule(AgentFund, {
  // Who an account belongs to is fixed and required by its type (the declaration's rules).
  beforeWrite(ctx, { values, existing }) {
    if (existing) return values;
    const type = values.accountType as FundAccountType;
    // Only company staff open the company's or an agent's account; others reach school accounts only.
    if (type !== FUND_ACCOUNT_SCHOOL && ctx.user.type !== 'company') throw forbidden();
    if (type === FUND_ACCOUNT_COMPANY && (values.agentId || values.schoolId)) throw badRequest([{ path: 'accountType', ...msg('finance.companyAccountAlone') }]);
    const owner = type === FUND_ACCOUNT_SCHOOL ? values.schoolId : type === FUND_ACCOUNT_COMPANY ? null : values.agentId;
    return {
      ...values,
      agentId: type === FUND_ACCOUNT_SCHOOL || type === FUND_ACCOUNT_COMPANY ? null : values.agentId,
      schoolId: type === FUND_ACCOUNT_SCHOOL ? values.schoolId : null,
      accountKey: accountKeyOf(type, owner ?? null),
    };
  },
  async beforeDelete(ctx, rows) {
    const ids = rows.map((row) => row.id);
    const used = (await ctx.db.execute(sql`select 1 from agent_fund_entries where account_id = any(${intArray(ids)}) limit 1`)) as unknown as { rows: unknown[] };
    if (used.rows.length > 0) throw badRequest([{ path: 'ids', ...msg('finance.accountHasEntries') }]);
  },
  actions: {
    /** A manual adjustment: one more entry with its reason, never an edit of the balance. */
    Adjust: rowAction('adjust', async (ctx, account, input) => {
      const amount = Number(input.amount);
      if (amount === 0) throw badRequest([{ path: 'amount', ...msg('finance.adjustmentZero') }]);
      const id = Number(account.id);
      const [entryId] = await postEntries(ctx.db, [
        {
          accountId: id,
          accountType: Number(account.accountType) as FundAccountType,
          schoolId: account.schoolId === null ? null : Number(account.schoolId),
          kind: FUND_ENTRY_ADJUSTMENT,
          amount,
          postedAt: ctx.clock.now(),
          reason: String(input.reason),
          createdBy: ctx.user.id,
        },
      ]);
      const after = (await ctx.db.execute(sql`select balance from agent_fund_accounts where id = ${id}`)) as unknown as { rows: { balance: unknown }[] };
      const changes = { balance: [Number(account.balance), Number(account.balance) + amount], reason: [null, input.reason] };
      return { changes, answer: { id, entryId, balance: Number(after.rows[0]!.balance) } };
    }),
  },
});

export const schoolChargeModule = defineFamilyModule(SchoolCharge, {
  actions: {
    /** The viewing password: MD5 on the wire, a slow hash at rest, behind the `password` button only. */
    UpdatePassword: rowAction('updatePassword', async (_ctx, existing, input) => ({ values: { password: await hashPassword(String(input.password)) }, answer: { id: existing.id } })),
  },
});

/** A provider's paid-trade notification records the payment it reports (a mall order's pays the order: resources/mall.ts). */
export const paymentRecordModule = defineFamilyModule(PaymentRecord, {
  seams: { notifications: { payment: withMarketOrderPayments(withAlbumOrderPayments(applyPaymentNotification)) } },
});
