/** Maintenance tickets: the device is named by its model and serial number (its school follows it: declared). */
import { MaintenanceTicket, OPEN_TICKET_STATES } from '@campus/contract';
import { eq, inArray } from 'drizzle-orm';
import { deviceClasses, devices } from '../db/schema/resources.js';
import { defineFamilyModule } from './engine/modules.js';

export const maintenanceTicketModule = defineFamilyModule(MaintenanceTicket, {
  // Tickets still to be worked on: open, assigned or in progress.
  pending: { badge: 'maintenanceOpen', where: { state: OPEN_TICKET_STATES } },
  /** The device as people name it: its product model, then its serial number ("人脸识别闸机 G31022"), not the serial alone. */
  async afterRead(ctx, rows) {
    const ids = [...new Set(rows.map((row) => Number(row.deviceId)).filter((id) => Number.isInteger(id)))];
    if (ids.length === 0) return rows;
    const found = await ctx.db
      .select({ id: devices.id, serialNumber: devices.serialNumber, model: deviceClasses.name })
      .from(devices)
      .leftJoin(deviceClasses, eq(deviceClasses.code, devices.deviceClassCode))
      .where(inArray(devices.id, ids));
    const names = new Map(found.map((device) => [Number(device.id), device.model ? `${device.model} ${device.serialNumber}` : String(device.serialNumber)]));
    return rows.map((row) => ({ ...row, deviceIdLabel: names.get(Number(row.deviceId)) ?? row.deviceIdLabel }));
  },
});
