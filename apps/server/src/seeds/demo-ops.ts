/** Demo rows of the ops pages: an NVR with its cameras and the school calendar's own days, per demo school. */
import { DEFAULT_HEARTBEAT_SECONDS, OFFLINE_AFTER_MISSED_HEARTBEATS } from '@campus/contract';
import { sealSecret } from '../platform/sealed-secrets.js';
import type { Transaction } from '../db/client.js';
import { nvrChannels, nvrs, schoolHolidays } from '../db/schema/index.js';

const CAMERAS = ['校门口', '操场', '教学楼走廊', '食堂'];

export async function seedDemoOps(tx: Transaction, demoSchools: { id: number }[]): Promise<void> {
  // One sealing for all demo recorders: they share the demo password.
  const password = await sealSecret(tx, 'Demo@NVR1');
  const now = Date.now();
  for (const [position, school] of demoSchools.entries()) {
    // Reached by the school's gate at the seed, or (every third) not for a day: online as the
    // terminals are, until the gates (the simulator) report again.
    const lastSeenAt = new Date(now - (position % 3 !== 2 ? 10_000 : 24 * 60 * 60 * 1000));
    const offlineAt = new Date(lastSeenAt.getTime() + OFFLINE_AFTER_MISSED_HEARTBEATS * DEFAULT_HEARTBEAT_SECONDS * 1000);
    const [nvr] = await tx
      .insert(nvrs)
      .values({ schoolId: school.id, name: '安防 NVR', serialNumber: `N16-DEMO-${school.id}`, ip: `192.168.${position + 10}.20`, port: 8000, userName: 'admin', password, channelCount: 16, lastSeenAt, offlineAt })
      .returning({ id: nvrs.id });
    await tx.insert(nvrChannels).values(
      CAMERAS.map((cameraName, i) => ({ nvrId: nvr!.id, lineNo: i + 1, channelNo: i + 1, cameraName, cameraSerial: `IPC-${school.id}-${i + 1}`, cameraModel: 'DS-2CD3T47', enabled: i < 3 })),
    );
    await tx.insert(schoolHolidays).values([
      { schoolId: school.id, name: '寒假', kind: 1, startDate: '2027-01-18', endDate: '2027-02-20' },
      { schoolId: school.id, name: '运动会补课', kind: 3, startDate: '2026-11-14', endDate: '2026-11-14' },
    ]);
  }
}
