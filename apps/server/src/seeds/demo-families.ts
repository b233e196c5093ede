/**
 * Demo rows of the declared families for the demo schools: classes, students, parents, teachers,
 * pick-up persons, product models, devices, deliveries, warranties, licence codes, maintenance tickets and
 * device orders. Generated
 * deterministically so every start of the demo looks the same.
 */
import { GRADE_OPTIONS } from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../db/client.js';
import { demoCommands } from './demo-commands.js';
import { demoTickets } from './demo-maintenance.js';
import { seedDemoOps } from './demo-ops.js';
import { demoRecognitions, type DemoPerson } from './demo-recognition.js';
import { seedDemoTerminal } from './demo-terminals.js';
import { DEMO_FIRST_FIRMWARE } from './demo-upgrades.js';
import {
  deviceClasses,
  deviceDeliveries,
  deviceWarranties,
  devices,
  licenses,
  maintenanceTickets,
  terminalCommands,
  terminalConfigs,
  orderItems,
  orders as deviceOrders,
  parentStudents,
  parents,
  pickUpPersons,
  recognitionRecords,
  schoolClasses,
  students,
  teachers,
} from '../db/schema/index.js';

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '胡', '朱', '高', '林'];
const GIVEN = ['子涵', '欣怡', '梓萱', '一诺', '浩宇', '宇轩', '沐宸', '若汐', '思远', '嘉怡', '俊杰', '雨桐', '明轩', '诗涵', '天佑', '语嫣'];

/** Given names of the parents' generation. */
const ADULT_GIVEN = ['建国', '丽华', '志强', '秀英', '海涛', '婷婷', '振宇', '晓燕', '国栋', '美玲', '文博', '雅静', '立新', '慧敏', '永刚', '春梅'];

/**
 * The n-th of 256 names from a surname and a list of 16 given names: the given name changes from one n
 * to the next as the surname does (so a class is not sixteen children of one given name), and `shift`
 * moves it along for another member of the same family.
 */
const nameFrom = (given: readonly string[], n: number, shift = 0) => {
  const surname = n % SURNAMES.length;
  return `${SURNAMES[surname]}${given[(surname + Math.floor(n / SURNAMES.length) + shift) % given.length]}`;
};

/** A name that differs for each n below 256. */
export const demoName = (n: number) => nameFrom(GIVEN, n);

/** A grown-up of the family of student n (demoName(n)): the child's surname, a given name distinct for each n below 256. */
const adultName = (n: number, shift: number) => nameFrom(ADULT_GIVEN, n, shift);

const DEVICE_CLASSES = [
  { type: 1, name: '人脸识别闸机 G3', code: 'GATE-G3', unitPrice: 680000, snPrefix: 'G3', manufacturerName: '深圳慧眼科技有限公司', licenseEnabled: true, licensePrice1: 30000, licensePrice2: 55000, licensePrice3: 78000, licensePrice4: 120000 },
  { type: 2, name: '人脸考勤机 A8', code: 'ATT-A8', unitPrice: 320000, snPrefix: 'A8', manufacturerName: '杭州视联电子有限公司', licenseEnabled: true, licensePrice1: 20000, licensePrice2: 36000, licensePrice3: 50000, licensePrice4: 80000 },
  { type: 3, name: '签到卡读卡器 R2', code: 'CARD-R2', unitPrice: 45000, snPrefix: 'R2', manufacturerName: '广州卡联科技有限公司', licenseEnabled: false },
  { type: 5, name: '16路 NVR N16', code: 'NVR-N16', unitPrice: 260000, snPrefix: 'N16', manufacturerName: '杭州视联电子有限公司', licenseEnabled: false },
] as const;

/** Parameter templates (templateManage): a school-day gate and a stricter one for flu season. */
const DEMO_TEMPLATES = [
  { name: '标准闸机参数', recognitionThreshold: 80, temperatureThreshold: 37.3, doorOpenSeconds: 3, volume: 60, workingHours: '06:30-18:30', enabled: true, remark: '演示数据' },
  { name: '流感季严格测温', recognitionThreshold: 85, temperatureThreshold: 37.0, doorOpenSeconds: 2, volume: 80, workingHours: '06:30-12:00,13:00-18:30', enabled: true, remark: '演示数据' },
];

/** Inserts the demo rows of the families for the given schools (ids with their agent); `snapshots` are the stored face tiles of the gates' records. */
export async function seedDemoFamilies(tx: Transaction, demoSchools: { id: number; agentId: number }[], snapshots: readonly string[] = []): Promise<void> {
  await tx.insert(deviceClasses).values(DEVICE_CLASSES.map((c) => ({ ...c, manufacturerPhone: '0571-88886666', remark: '演示数据' })));
  await tx.insert(terminalConfigs).values(DEMO_TEMPLATES);

  let person = 0;
  let serial = 1000;
  for (const [position, school] of demoSchools.entries()) {
    const kindergarten = position % 2 === 0;
    const grades = kindergarten ? GRADE_OPTIONS.slice(1, 4) : GRADE_OPTIONS.slice(4, 7);
    const classes = await tx
      .insert(schoolClasses)
      .values(grades.map((grade) => ({ schoolId: school.id, grade: grade.value as number, className: `${grade.zh}1班`, headTeacher: `${demoName(person + grade.value)}老师` })))
      .returning({ id: schoolClasses.id });

    const teacherRows = await tx
      .insert(teachers)
      .values(
        classes.map((c, i) => ({ schoolId: school.id, classId: c.id, name: demoName(person + 50 + i), phoneNum: `1371${String(position).padStart(2, '0')}${String(i).padStart(5, '0')}`, enabled: true })),
      )
      .returning({ id: teachers.id, name: teachers.name });

    const firstPerson = person + 1;
    const studentRows = await tx
      .insert(students)
      .values(
        classes.flatMap((c, ci) =>
          Array.from({ length: 8 }, (_, i) => {
            person += 1;
            return {
              schoolId: school.id,
              classId: c.id,
              name: demoName(person),
              studentNo: `S${school.id}${ci}${String(i + 1).padStart(2, '0')}`,
              cardNo: `C${String(person).padStart(8, '0')}`,
              gender: (person % 2) + 1,
              birthDate: `${kindergarten ? 2021 : 2017}-${String((person % 12) + 1).padStart(2, '0')}-${String((person % 27) + 1).padStart(2, '0')}`,
              state: i === 7 ? 2 : 1,
            };
          }),
        ),
      )
      .returning({ id: students.id, name: students.name });

    const parentRows = await tx
      .insert(parents)
      .values(
        studentRows.map((_, i) => ({
          schoolId: school.id,
          name: adultName(firstPerson + i, 0),
          phoneNum: `139${String(school.id).padStart(2, '0')}${String(i).padStart(6, '0')}`,
          relation: (i % 2) + 1,
          enabled: true,
        })),
      )
      .returning({ id: parents.id });
    // Each parent has its child; the first parent of the school also has a sibling in another class.
    await tx.insert(parentStudents).values([
      ...parentRows.map((p, i) => ({ parentId: p.id, studentId: studentRows[i]!.id })),
      { parentId: parentRows[0]!.id, studentId: studentRows[studentRows.length - 1]!.id },
    ]);
    await tx.insert(pickUpPersons).values(
      studentRows.slice(0, 6).map((s, i) => ({
        schoolId: school.id,
        studentId: s.id,
        name: adultName(firstPerson + i, 8),
        relation: 3 + (i % 4),
        phoneNum: `136${String(school.id).padStart(2, '0')}${String(i).padStart(6, '0')}`,
        validUntil: '2027-07-31',
      })),
    );

    const [delivery] = await tx
      .insert(deviceDeliveries)
      .values({
        deliveryNo: `FH2026${String(school.id).padStart(4, '0')}`,
        schoolId: school.id,
        agentId: school.agentId,
        deviceCount: 3,
        warrantyMonths: 24,
        consigneeName: '张老师',
        consigneePhone: '13900000000',
        deliveryAddress: '学校门卫室',
        installationAddress: '学校正门',
        installationTime: new Date(Date.UTC(2026, position % 12, 10, 2)),
      })
      .returning({ id: deviceDeliveries.id, installationTime: deviceDeliveries.installationTime });

    // Two licensed devices per school; the second of every other school still lacks its licence (badge).
    const schoolDevices = [DEVICE_CLASSES[0], DEVICE_CLASSES[1], DEVICE_CLASSES[2]].map((c, i) => {
      serial += 1;
      return {
        serialNumber: `${c.snPrefix}${serial}`,
        deviceClassCode: c.code,
        imeiOrMac: `AC:DE:48:${String(position).padStart(2, '0')}:${String(i).padStart(2, '0')}:${String(serial % 100).padStart(2, '0')}`,
        schoolId: school.id,
        state: 3,
        licenseKey: c.licenseEnabled && !(i === 1 && position % 2 === 1) ? `LIC-${serial}` : null,
        ...lifeTimes(delivery!.installationTime!),
      };
    });
    const [firstDevice, attendanceDevice] = await tx.insert(devices).values(schoolDevices).returning({ id: devices.id });
    await tx.insert(maintenanceTickets).values(demoTickets(position, school.id, firstDevice!.id));
    await tx.insert(terminalCommands).values(demoCommands(school.id, firstDevice!.id, new Date()));
    const gatePeople: DemoPerson[] = [...teacherRows.slice(0, 2).map((t) => ({ ...t, kind: 2 })), ...studentRows.map((s) => ({ ...s, kind: 1 }))];
    await tx.insert(recognitionRecords).values(demoRecognitions(position, school.id, firstDevice!.id, gatePeople, new Date(), snapshots));
    // The face terminals on the firmware the demo's upgrade plans start from (demo-upgrades.ts).
    await seedDemoTerminal(tx, position, school.id, { id: firstDevice!.id, serialNumber: schoolDevices[0]!.serialNumber, firmwareVersion: DEMO_FIRST_FIRMWARE['GATE-G3'], host: 20 }, new Date());
    await seedDemoTerminal(tx, position, school.id, { id: attendanceDevice!.id, serialNumber: schoolDevices[1]!.serialNumber, firmwareVersion: DEMO_FIRST_FIRMWARE['ATT-A8'], host: 21 }, new Date());
    const start = delivery!.installationTime!.toISOString().slice(0, 10);
    await tx.insert(deviceWarranties).values(
      schoolDevices.map((d) => ({
        deliveryId: delivery!.id,
        serialNumber: d.serialNumber,
        schoolId: school.id,
        startDate: start,
        endDate: `${Number(start.slice(0, 4)) + 2}${start.slice(4)}`,
      })),
    );

    await tx.insert(licenses).values(
      [1, 2, 3].flatMap((useFor) =>
        Array.from({ length: 3 }, (_, i) => ({
          ticket: `${['GK', 'AK', 'SK'][useFor - 1]}-${school.id}-${String(i + 1).padStart(4, '0')}`,
          useFor,
          type: i === 2 ? 2 : 1,
          schoolId: school.id,
          studentName: i === 0 ? studentRows[i]!.name : null,
          state: i === 0 ? 1 : 0,
          validUntil: '2027-08-31',
          enabled: i !== 2,
        })),
      ),
    );
  }

  // Stock not yet delivered: only company-wide scopes see it.
  await tx.insert(devices).values([
    ...Array.from({ length: 6 }, (_, i) => ({ serialNumber: `G3${9000 + i}`, deviceClassCode: 'GATE-G3', state: 1, licenseKey: null })),
    ...Array.from({ length: 4 }, (_, i) => ({ serialNumber: `A8${9100 + i}`, deviceClassCode: 'ATT-A8', state: 1, licenseKey: null })),
  ]);
  await tx.insert(devices).values(demoDeviceHistory(demoSchools));
  await seedDemoOrders(tx, demoSchools);
  await seedDemoOps(tx, demoSchools);
}

/** One order per school, all submitted except the first school's, which is confirmed and ready to ship from stock. */
async function seedDemoOrders(tx: Transaction, demoSchools: { id: number; agentId: number }[]): Promise<void> {
  const price = (code: string) => DEVICE_CLASSES.find((c) => c.code === code)!.unitPrice;
  for (const [position, school] of demoSchools.entries()) {
    const lines = position === 0 ? [{ deviceClassCode: 'GATE-G3', quantity: 2 }, { deviceClassCode: 'ATT-A8', quantity: 1 }] : [{ deviceClassCode: 'ATT-A8', quantity: 1 + (position % 3) }];
    const priced = lines.map((line, index) => ({ ...line, lineNo: index + 1, unitPrice: price(line.deviceClassCode), amount: line.quantity * price(line.deviceClassCode) }));
    const [order] = await tx
      .insert(deviceOrders)
      .values({
        agentId: school.agentId,
        schoolId: school.id,
        consigneeName: '王老师',
        consigneePhone: '13900000001',
        deliveryAddress: '学校总务处',
        totalAmount: priced.reduce((sum, line) => sum + line.amount, 0),
        state: position === 0 ? 2 : 1,
        remark: '演示订单',
      })
      .returning({ id: deviceOrders.id });
    // The number the server gives an order: day and id (`numbered` in the Order declaration).
    await tx.update(deviceOrders).set({ orderNo: `DD20260401${String(order!.id).padStart(6, '0')}` }).where(eq(deviceOrders.id, order!.id));
    await tx.insert(orderItems).values(priced.map((line) => ({ ...line, orderId: order!.id })));
  }
}

/** When a device installed at `installedAt` was stocked and shipped: the demo's warehousing history. */
function lifeTimes(installedAt: Date) {
  const daysBefore = (days: number) => new Date(installedAt.getTime() - days * 86_400_000);
  return { createdAt: daysBefore(24), shippedAt: daysBefore(6), installedAt };
}

/**
 * Devices over the past twelve months of 2026 in every state, so the product and warehousing
 * statistics show more than one bar and one point: per school, one NVR shipped, one reader back in
 * repair and one attendance machine scrapped; and one batch of readers stocked each month.
 */
function demoDeviceHistory(demoSchools: { id: number }[]) {
  const at = (month: number, day: number) => new Date(Date.UTC(2026, month, day, 2));
  const perSchool = demoSchools.flatMap((school, position) => {
    const month = (position * 3 + 1) % 11;
    return [
      { serialNumber: `N16${5000 + position}`, deviceClassCode: 'NVR-N16', schoolId: school.id, state: 2, createdAt: at(month, 2), shippedAt: at(month, 20) },
      { serialNumber: `R2${5100 + position}`, deviceClassCode: 'CARD-R2', schoolId: school.id, state: 4, ...lifeTimes(at(month, 25)) },
      // Licensed while in use, so it does not wait for a licence (the licenseUnset badge).
      { serialNumber: `A8${5200 + position}`, deviceClassCode: 'ATT-A8', schoolId: school.id, state: 5, licenseKey: `LIC-${5200 + position}`, ...lifeTimes(at((month + 2) % 11, 15)) },
    ];
  });
  const stock = Array.from({ length: 11 }, (_, month) =>
    Array.from({ length: 1 + (month % 3) }, (_, i) => ({ serialNumber: `R2${5300 + month * 10 + i}`, deviceClassCode: 'CARD-R2', state: 1, createdAt: at(month, 8) })),
  ).flat();
  return [...perSchool, ...stock].map((device) => ({ licenseKey: null, ...device }));
}
