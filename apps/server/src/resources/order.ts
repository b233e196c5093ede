/**
 * Device order rules: whose order it is, edits only while submitted, and shipping — which
 * picks in-stock devices by serial number, creates the delivery and marks the devices delivered.
 */
import { Device, DeviceDelivery, Order, type ServerMessage, type StoredRowOf } from '@campus/contract';
import { eq, inArray } from 'drizzle-orm';
import { devices, orderItems } from '../db/schema/resources.js';
import { badRequest, msg } from '../platform/errors.js';
import type { EngineContext, Row } from './engine/context.js';
import { defineFamilyModule } from './engine/modules.js';
import { allConditions, scopeWhere } from './engine/query.js';
import { addRow } from './engine/write.js';
import { updateRecords } from './engine/services.js';

/** Device states the shipping reads and writes (DEVICE_STATE_OPTIONS). */
const IN_STOCK = 1;
const DELIVERED = 2;


/** Serial numbers as typed into the Ship form: one per line, or separated by commas or spaces. */
export function parseSerialNumbers(text: string): string[] {
  return text.split(/[\s,，、;；]+/).filter(Boolean);
}


/** An order row as its table stores it. */
type StoredOrder = StoredRowOf<typeof Order>;

/** Counts per product model: what the lines ask for, or what the picked devices are. */
function countByModel(rows: Row[], quantityOf: (row: Row) => number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(String(row.deviceClassCode), (counts.get(String(row.deviceClassCode)) ?? 0) + quantityOf(row));
  return counts;
}

/** "GATE-G3: ordered 2, picked 1" for every model whose picked count differs from the order's. */
function modelMismatches(ordered: Map<string, number>, picked: Map<string, number>): string[] {
  const models = [...new Set([...ordered.keys(), ...picked.keys()])];
  return models.filter((m) => (ordered.get(m) ?? 0) !== (picked.get(m) ?? 0)).map((m) => `${m}: ${ordered.get(m) ?? 0} / ${picked.get(m) ?? 0}`);
}

/**
 * The in-stock devices picked for an order, locked; refuses unknown or duplicated serial numbers,
 * devices not in stock, and a pick whose models and counts differ from the order's lines.
 */
async function pickDevices(ctx: EngineContext, order: StoredOrder, serialNumbers: string[]): Promise<Row[]> {
  const fail = (message: ServerMessage): never => {
    throw badRequest([{ path: 'serialNumbers', ...message }]);
  };
  if (serialNumbers.length === 0) fail(msg('order.noSerials'));
  const repeated = serialNumbers.filter((s, i) => serialNumbers.indexOf(s) !== i);
  if (repeated.length) fail(msg('order.serialsTwice', { serials: [...new Set(repeated)] }));

  const picked = (await ctx.db
    .select()
    .from(devices)
    .where(allConditions(inArray(devices.serialNumber, serialNumbers), scopeWhere({ ...ctx, def: Device }, devices)))
    .for('update')) as Row[];
  const found = new Set(picked.map((d) => String(d.serialNumber)));
  const missing = serialNumbers.filter((s) => !found.has(s));
  if (missing.length) fail(msg('order.serialsUnknown', { serials: missing }));
  const notInStock = picked.filter((d) => Number(d.state) !== IN_STOCK).map((d) => String(d.serialNumber));
  if (notInStock.length) fail(msg('order.serialsNotInStock', { serials: notInStock }));

  const lines = (await ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order.id))) as Row[];
  const mismatches = modelMismatches(
    countByModel(lines, (line) => Number(line.quantity)),
    countByModel(picked, () => 1),
  );
  if (mismatches.length) fail(msg('order.serialsMismatch', { details: mismatches }));
  return picked;
}

/**
 * Ship: the picked devices go to the order's school as one delivery of equipmentDelivery (written
 * through the engine like an Add, so it is checked and logged), and are marked delivered. Runs in
 * the transition's transaction; answers the order's link to its delivery.
 */
export async function shipOrder(ctx: EngineContext, order: StoredOrder, input: Row): Promise<Row> {
  const picked = await pickDevices(ctx, order, parseSerialNumbers(String(input.serialNumbers ?? '')));
  const delivery = await addRow(
    { ...ctx, def: DeviceDelivery, view: DeviceDelivery.views[0]! },
    {
      deliveryNo: `FH${(order.orderNo ?? '').replace(/^DD/, '')}`,
      schoolId: order.schoolId,
      agentId: order.agentId,
      deviceCount: picked.length,
      warrantyMonths: input.warrantyMonths,
      consigneeName: order.consigneeName,
      consigneePhone: order.consigneePhone,
      deliveryAddress: order.deliveryAddress,
      remark: `${Order.label.zh} ${order.orderNo ?? ''}`,
    },
  );
  const ids = picked.map((d) => Number(d.id));
  await updateRecords(ctx.db, Device, ids, {
    values: { state: DELIVERED, schoolId: order.schoolId },
    now: new Date(),
    log: { userId: ctx.user.id, action: 'ship', changes: { state: [IN_STOCK, DELIVERED], schoolId: order.schoolId, orderNo: order.orderNo } },
  });
  return { deliveryId: delivery.id };
}

// The order's agent is the calling agent's (`ownedBy`), else the one company staff chose, else the school's (`defaultFrom`).
export const orderModule = defineFamilyModule(Order, {
  transitions: { Ship: shipOrder },
});
