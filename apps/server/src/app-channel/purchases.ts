/**
 * A parent buys a child's safe-campus service: an order for one of the charge items the child's
 * school sells (parents/ chargeItemsFor) paid through the active finance provider. The demo provider
 * settles at once, so the payment is recorded here through recordPayment, which extends the child's
 * service; WeChat Pay answers the app's signed prepay parameters, and its notification records the
 * payment later (finance/payment-notifications.ts) from the order's `attach` (school, parent, student,
 * charge item), exactly as for any other order.
 */
import { ErrorCode, formatBusinessDate, type AppBuyService, type AppChildService, type AppOrder } from '@campus/contract';
import type { Database } from '../db/client.js';
import { CHANNEL_OF_PROVIDER, paymentAttachOf } from '../finance/payment-notifications.js';
import { newOutTradeNo, recordPayment } from '../finance/payments.js';
import type { PaymentProviders } from '../finance/providers/index.js';
import { chargeItemsFor, serviceStatesOf } from '../parents/index.js';
import type { Clock } from '../platform/clock.js';
import { publishLive } from '../platform/live-events.js';
import type { Messenger } from '../platform/messenger.js';
import { AppError, badRequest, conflict, msg, notFound } from '../platform/errors.js';
import { childrenNames } from './reads.js';
import type { AppParent } from './sessions.js';

/** What a purchase needs: the app's, or the demo seed's (its transaction and the demo provider). */
export interface PurchaseDeps {
  db: Database;
  payments: Pick<PaymentProviders, 'active'>;
  clock: Clock;
  /** The app's messenger; absent for the demo seed, which has no browser to tell. */
  messenger?: Messenger;
}

/** What the parent holds for each child and what it can buy for it. */
export async function servicesOf(db: Database, parent: AppParent, now: Date): Promise<AppChildService[]> {
  const held = await serviceStatesOf(db, parent.id, parent.children.map((child) => child.id), formatBusinessDate(now));
  const names = await childrenNames(db, parent);
  const itemsBySchool = new Map<number, Awaited<ReturnType<typeof chargeItemsFor>>>();
  for (const schoolId of parent.schoolIds) itemsBySchool.set(schoolId, await chargeItemsFor(db, schoolId));
  return held.map((service) => ({
    ...service,
    studentName: names.get(service.studentId) ?? '',
    chargeItems: (itemsBySchool.get(service.schoolId) ?? []).map(({ id, name, unitPrice, serviceMonths }) => ({ id, name, unitPrice, serviceMonths })),
  }));
}

/** Places and pays the order (module doc); answers what the app shows or opens next. */
export async function buyService(deps: PurchaseDeps, parent: AppParent, body: AppBuyService): Promise<AppOrder> {
  const child = parent.children.find((candidate) => candidate.id === body.studentId);
  if (!child) throw notFound();
  const item = (await chargeItemsFor(deps.db, child.schoolId)).find((offer) => offer.id === body.chargeItemId);
  if (!item) throw badRequest([{ path: 'chargeItemId', ...msg('app.serviceNotForSale') }]);
  const now = deps.clock.now();
  const provider = deps.payments.active;
  const outTradeNo = newOutTradeNo(now);
  const attach = { schoolId: child.schoolId, parentId: parent.id, studentId: child.id, chargeItemId: item.id };
  const answer = await provider.pay({ outTradeNo, amount: item.unitPrice, description: item.name.slice(0, 127), attach: paymentAttachOf(attach), scene: body.scene });
  if (answer.outcome === 'failed') throw conflict(msg('app.paymentFailed', { message: answer.message ?? '' }));
  if (answer.outcome === 'unknown') throw new AppError(503, ErrorCode.ServiceUnavailable, msg('app.paymentUnknown'));
  if (answer.outcome === 'pending') {
    return { outTradeNo, amount: item.unitPrice, outcome: 'pending', provider: provider.name, payParams: answer.appPayParams ?? null, payUrl: answer.payUrl ?? null, paymentId: null, serviceTo: null };
  }
  const { payment } = await deps.db.transaction((tx) =>
    recordPayment(tx, { ...attach, amount: item.unitPrice, channel: CHANNEL_OF_PROVIDER[provider.name], tradeNo: answer.providerTradeNo ?? outTradeNo, outTradeNo, paidAt: now }),
  );
  publishLive(deps.messenger, 'overview', payment.schoolId);
  const [held] = await serviceStatesOf(deps.db, parent.id, [child.id], formatBusinessDate(now));
  return { outTradeNo, amount: item.unitPrice, outcome: 'paid', provider: provider.name, payParams: null, payUrl: null, paymentId: payment.id, serviceTo: held?.serviceTo ?? null };
}
