/**
 * Device rules (a serial number starting with its product model's prefix is declared, `agrees`): the
 * devices awaiting a licence; a warranty's dates follow its delivery (its school does too, declared as
 * `schoolRef({ from: 'deliveryId' })`).
 */
import { Device, DeviceDelivery, DeviceWarranty, formatBusinessDate } from '@campus/contract';
import { and, isNull, sql, type SQL } from 'drizzle-orm';
import { deviceClasses } from '../db/schema/index.js';
import { badRequest, msg } from '../platform/errors.js';
import { defineFamilyModule } from './engine/modules.js';
import { findBy, valueAfter } from './engine/lookup.js';
import { columnOf } from './engine/query.js';
import type { ResourceTable } from '../db/schema/table.js';

/**
 * Devices awaiting a licence: their product model needs one and none is set. The `licenseUnset`
 * badge counts these rows and the `licensePending` filter lists them, so the two cannot disagree.
 */
export function licensePendingCondition(table: ResourceTable): SQL {
  const needsLicence = sql`exists (select 1 from ${deviceClasses} where ${deviceClasses.code} = ${columnOf(table, 'deviceClassCode')} and ${deviceClasses.licenseEnabled})`;
  return and(isNull(columnOf(table, 'licenseKey')), needsLicence)!;
}


export const deviceModule = defineFamilyModule(Device, {
  pending: { badge: 'licenseUnset', where: licensePendingCondition, filter: { name: 'licensePending', pending: true } },
});

/** The date `months` after a YYYY-MM-DD date, clamped to the month's last day (Jan 31 + 1 = Feb 28/29). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));
  return target.toISOString().slice(0, 10);
}

export const deviceWarrantyModule = defineFamilyModule(DeviceWarranty, {
  async beforeWrite(ctx, { values, existing }) {
    const deliveryId = valueAfter(values, existing, 'deliveryId');
    const delivery = await findBy(ctx.db, DeviceDelivery, 'id', deliveryId);
    if (!delivery) throw badRequest([{ path: 'deliveryId', ...msg('validation.referenceNotFound', { field: DeviceDelivery.label }) }]);
    if (!delivery.installationTime) {
      throw badRequest([{ path: 'deliveryId', ...msg('device.deliveryNotInstalled') }]);
    }
    const startDate = formatBusinessDate(delivery.installationTime);
    return {
      ...values,
      startDate,
      endDate: addMonths(startDate, delivery.warrantyMonths),
    };
  },
});
