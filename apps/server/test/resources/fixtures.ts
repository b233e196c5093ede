import { FRAMES, FUND_ACCOUNT_SCHOOL, FUND_ENTRY_ADJUSTMENT, RESOURCES, RecognitionRecord, type ResourceDef, type TransitionDef } from '@campus/contract';
import { REGIONS } from '@campus/contract/regions';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { coupons } from '../../src/db/schema/mall.js';
import { albumBooks, appChargeItems, deviceClasses, deviceDeliveries, developers, devices, educationDirectories, feverAlerts, grants, parents, schools, students, terminalAppVersions, uploadedFiles, users } from '../../src/db/schema/index.js';
import { md5Hex } from '../../src/platform/passwords.js';
import { ensureAccount, postEntries } from '../../src/finance/ledger.js';
import { recordPayment } from '../../src/finance/payments.js';
import { columnOf } from '../../src/resources/engine/query.js';
import { tableOf } from '../../src/resources/engine/registry.js';
import type { TestApp } from '../helpers/test-app.js';
import { mallCatalogue, parentWithAddress, pointsCommodity, receivedOrder, releasedCommodity } from '../mall/mall-fixtures.js';
import { postPoints } from '../../src/mall/points.js';
import { claimCoupon } from '../../src/mall/coupons.js';
import { albumTaskRows, doneAlbumBook, photoOf } from '../albums/album-fixtures.js';
import { demoMp4 } from '../../src/seeds/demo-courseware.js';

/** Districts no demo row or test names elsewhere (Xinjiang's), so exclusive agent areas never collide. */
const SPARE_DISTRICTS = REGIONS.find((p) => p.name === '新疆维吾尔自治区')!.children.flatMap((city) =>
  city.children.map((area) => ({ province: '新疆维吾尔自治区', city: city.name, area: area.name })),
);

let counter = 0;
/** A value no other test row has. */
export const unique = () => `${Date.now() % 100000}${++counter}`;

export async function userIdOf(t: TestApp, loginName: string): Promise<number> {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.loginName, loginName));
  return user!.id;
}

/** School ids of an agent's scope. */
export async function schoolIdsOf(t: TestApp, agentLogin: string): Promise<number[]> {
  const agentId = await userIdOf(t, agentLogin);
  return (await t.db.select({ id: schools.id }).from(schools).where(eq(schools.agentId, agentId))).map((s) => s.id);
}

/** Replaces a user's grant with every frame and button, so scope alone decides what it reaches. */
export async function grantEverything(t: TestApp, loginName: string): Promise<void> {
  const userId = await userIdOf(t, loginName);
  await t.db.insert(grants).values(FRAMES.map((f) => ({ subjectType: 'user' as const, userId, frameId: f.fixedId, buttons: [...f.buttons] })));
}

/** Replaces a user's grant with the family frames and no button at all (read-only). */
export async function grantReadOnly(t: TestApp, loginName: string, frames: number[]): Promise<void> {
  const userId = await userIdOf(t, loginName);
  await t.db.insert(grants).values(frames.map((frameId) => ({ subjectType: 'user' as const, userId, frameId, buttons: [] })));
}

/** A new school of the same agent as the given one, for families that allow one row per school. */
export async function schoolLike(t: TestApp, schoolId: number): Promise<number> {
  const [school] = await t.db.select({ agentId: schools.agentId }).from(schools).where(eq(schools.id, schoolId));
  const [created] = await t.db
    .insert(schools)
    .values({ schoolName: `财务测试学校${unique()}`, province: '浙江省', city: '杭州市', area: '滨江区', schoolType: 1, agentId: school!.agentId })
    .returning({ id: schools.id });
  return created!.id;
}

/** A WAV file of `seconds` of silence (8 kHz, 8-bit, mono): the smallest audio every parser reads. */
export function silentWav(seconds: number): Buffer {
  const samples = 8000 * seconds;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 0x80)]);
}

/** Stores bytes as an upload of the company scope (as an upload call would) and answers its address. */
export async function storedUpload(t: TestApp, bytes: Buffer, ext: string): Promise<string> {
  const key = `2026/03/${randomBytes(16).toString('base64url')}.${ext}`;
  const staged = path.join(t.app.uploads.stagingDir, `${randomBytes(8).toString('hex')}.part`);
  await fs.mkdir(t.app.uploads.stagingDir, { recursive: true });
  await fs.writeFile(staged, bytes);
  await t.app.uploads.put(key, staged);
  await t.db.insert(uploadedFiles).values({ key, scopeKey: 'company', size: bytes.length, sha256: 'ab'.repeat(32) });
  return `/uploads/${key}`;
}

/** An uploaded package's address, recorded like UploadPackages records one (company scope). */
export async function samplePackageUrl(t: TestApp): Promise<string> {
  const key = `2026/03/${randomBytes(16).toString('base64url')}.bin`;
  await t.db.insert(uploadedFiles).values({ key, scopeKey: 'company', size: 1024, sha256: 'ab'.repeat(32) });
  return `/uploads/${key}`;
}

/** A valid Add body of each family, inside the given school. */
export async function validAddBody(t: TestApp, def: ResourceDef, schoolId: number): Promise<Record<string, unknown>> {
  const n = unique();
  switch (def.name) {
    case 'School':
      return { schoolName: `测试学校${n}`, province: '浙江省', city: '杭州市', area: '滨江区', schoolType: 1 };
    case 'SchoolClass':
      return { schoolId, grade: 2, className: `小班${n}` };
    case 'Refund': {
      // An application for a demo payment of the school with something left to refund.
      const found = (await t.db.execute(sql`select id from payment_records where school_id = ${schoolId} and amount > refunded_amount order by id limit 1`)) as unknown as { rows: { id: number }[] };
      return { paymentId: Number(found.rows[0]!.id), reason: `测试退款${n}` };
    }
    case 'DeviceClass':
      return { type: 1, name: `测试闸机${n}`, code: `T-${n}`, snPrefix: 'TX' };
    case 'Device':
      return { serialNumber: `G3T${n}`, deviceClassCode: 'GATE-G3', schoolId };
    case 'DeviceDelivery':
      return { deliveryNo: `T${n}`, schoolId, deviceCount: 2, warrantyMonths: 12, consigneeName: '测试', consigneePhone: '13900001111', deliveryAddress: '门卫室' };
    case 'DeviceWarranty': {
      const [delivery] = await t.db
        .select({ id: deviceDeliveries.id })
        .from(deviceDeliveries)
        .where(and(eq(deviceDeliveries.schoolId, schoolId), isNotNull(deviceDeliveries.installationTime)));
      return { deliveryId: delivery!.id, serialNumber: `W${n}` };
    }
    case 'License':
      return { ticket: `TK-${n}`, type: 1, schoolId };
    case 'Student':
      return { schoolId, name: `测试${n}` };
    case 'Parent':
      return { phoneNum: `158${n.padStart(8, '0').slice(-8)}`, name: `家长${n}`, schoolId, password: 'e10adc3949ba59abbe56e057f20f883e' };
    case 'Teacher':
      return { schoolId, name: `老师${n}`, phoneNum: '13700001111' };
    case 'PickUpPerson': {
      const [student] = await t.db.select({ id: students.id }).from(students).where(eq(students.schoolId, schoolId)).limit(1);
      return { studentId: student!.id, name: `接送${n}`, relation: 1, phoneNum: '13600001111' };
    }
    case 'CompanyUser':
      return { loginName: `staff${n}`, password: md5Hex(`Staff@${n}`), name: `员工${n}`, phoneNum: '13500001111', type: 'company' };
    case 'ExternalUser':
      return { loginName: `ext${n}`, password: md5Hex(`Ext@${n}`), name: `外部${n}`, phoneNum: '13500002222', schoolIds: [schoolId] };
    case 'ChildUser':
      return { loginName: `sub${n}`, password: md5Hex(`Sub@${n}`), name: `子账号${n}`, phoneNum: '13500003333', parentId: await userIdOf(t, 'agent1') };
    case 'SalesArea':
      return { name: `测试区域${n}`, provinces: '浙江省,江苏省' };
    case 'SalesTeam':
      return { name: `测试团队${n}` };
    case 'Order':
      return {
        schoolId,
        consigneeName: '测试收货人',
        consigneePhone: '13900002222',
        deliveryAddress: '学校门卫室',
        items: [{ deviceClassCode: 'GATE-G3', quantity: 2 }, { deviceClassCode: 'ATT-A8', quantity: 1 }],
      };
    case 'EducationCourseware': {
      const [directory] = await t.db.insert(educationDirectories).values({ name: `课件目录${n}`, sortOrder: 0, enabled: true }).returning({ id: educationDirectories.id });
      return { title: `交通安全${n}`, directoryId: Number(directory!.id), schoolId, kind: 1, videoFile: await storedUpload(t, demoMp4(30), 'mp4') };
    }
    case 'EducationDirectory':
      return { name: `测试目录${n}` };
    case 'AgentArea':
      return { agentId: await userIdOf(t, 'agent2'), ...SPARE_DISTRICTS[counter % SPARE_DISTRICTS.length], isExclusive: true };
    case 'MaintenanceTicket': {
      const [device] = await t.db.select({ id: devices.id }).from(devices).where(eq(devices.schoolId, schoolId)).limit(1);
      return { deviceId: device!.id, title: `闸机故障${n}`, priority: 'urgent', description: '识别失败' };
    }
    case 'AppVersion':
      return { osType: 1, appType: 1, versionNumber: '2.3.1', versionCode: Number(n), updateContent: '修复已知问题', downloadUrl: 'https://example.com/app.apk' };
    case 'Terminal': {
      // One terminal per device: each Add gets a device of its own.
      const [device] = await t.db.insert(devices).values({ serialNumber: `G3T${n}`, deviceClassCode: 'GATE-G3', schoolId }).returning({ id: devices.id });
      return { deviceId: device!.id, remark: `测试终端${n}` };
    }
    case 'TerminalConfig':
      return { name: `测试模板${n}`, doorOpenSeconds: 3, volume: 60, workingHours: '07:00-12:00,13:30-18:00', remark: '测试' };
    case 'TerminalCommand': {
      const [device] = await t.db.select({ id: devices.id }).from(devices).where(eq(devices.schoolId, schoolId)).limit(1);
      return { deviceId: device!.id, kind: 'reboot' };
    }
    case 'Developer':
      return { name: `开发者${n}`, callbackUrl: 'https://partner.example.com/callback', schoolIds: [schoolId] };
    case 'SchoolHoliday':
      return { schoolId, name: `秋假${n}`, kind: 1, startDate: '2026-11-02', endDate: '2026-11-06' };
    case 'Nvr':
      return {
        schoolId,
        name: `教学楼NVR${n}`,
        serialNumber: `NVR${n}`,
        ip: '192.168.1.10',
        port: 8000,
        userName: 'admin',
        password: `Nvr@${n}`,
        channelCount: 8,
        channels: [{ channelNo: 1, cameraName: '大门', cameraModel: 'DS-2CD' }],
      };
    case 'AppChargeItem':
      return { name: `测试收费${n}`, unitPrice: 9900, serviceMonths: 12, remark: '测试' };
    // One service per child: each body names a new child of the school.
    case 'StudentService': {
      const [student] = await t.db.insert(students).values({ schoolId, name: `服务${n}` }).returning({ id: students.id });
      return { studentId: student!.id };
    }
    // One service config and one fund account per school: each body names a new school of the same agent.
    case 'ServiceConfig':
      return { schoolId: await schoolLike(t, schoolId), mode: 1, splitRules: [{ effectiveFrom: '2026-01-01', companyPercent: 50, agentPercent: 30, schoolPercent: 20 }] };
    case 'AgentFund':
      return { name: `测试账户${n}`, accountType: 3, schoolId: await schoolLike(t, schoolId) };
    case 'TerminalAppVersion':
      return { terminalType: 1, versionNumber: `2.${n}`, packageUrl: await samplePackageUrl(t), canUpdatedVersions: '1.0, 1.1', upgradeAlgorithm: 'full' };
    case 'TerminalAppUpgrade': {
      // A device of the school and a version of its terminal type, so Release resolves one target.
      const [device] = await t.db
        .select({ serialNumber: devices.serialNumber, type: deviceClasses.type })
        .from(devices)
        .innerJoin(deviceClasses, eq(deviceClasses.code, devices.deviceClassCode))
        .where(eq(devices.schoolId, schoolId))
        .limit(1);
      const [version] = await t.db
        .insert(terminalAppVersions)
        .values({ terminalType: device!.type, versionNumber: `9.${n}`, packageUrl: await samplePackageUrl(t), upgradeAlgorithm: 'full', enabled: true })
        .returning({ id: terminalAppVersions.id });
      return { name: `升级计划${n}`, versionId: version!.id, targetMode: 3, serialNumbers: device!.serialNumber, devicesPerMinute: 5 };
    }
    case 'SchoolCharge':
      return { schoolId, name: `精彩课堂${n}`, unitPrice: 3000, serviceMonths: 1 };
    case 'ComprehensiveCharge': {
      const [item] = await t.db.select({ id: appChargeItems.id }).from(appChargeItems).limit(1);
      return { name: `综合套餐${n}`, bundlePrice: 15_000, items: [{ chargeItemId: item!.id, quantity: 1 }] };
    }
    case 'UserFeedback':
      return { schoolId, parentName: `家长${n}`, phoneNum: '13800001111', category: 2, content: `考勤推送延迟${n}` };
    case 'LiveFeedback':
      return { schoolId, className: '大一班', parentName: `家长${n}`, phoneNum: '13800002222', kind: 1, content: `直播卡顿${n}` };
    case 'SysNotice':
      return { title: `系统维护通知${n}`, audience: 1, content: '本周六凌晨系统维护', startDate: '2026-11-01', endDate: '2026-12-31' };
    case 'AppNoticeTemplate':
      return { name: `入园模板${n}`, kind: 1, title: '{studentName}已入园', content: '{studentName}于{time}到达{schoolName}，体温{temperature}℃' };
    case 'AppContent':
      return { title: `育儿文章${n}`, category: 1, body: '<p>正文<strong>加粗</strong></p>', sort: 1 };
    case 'UserHelp':
      return { category: 1, title: `如何登录${n}`, content: '<p>使用手机号登录</p>', sort: 1 };
    case 'Question':
      return { category: 2, question: `如何查看考勤${n}`, answer: '在首页点击考勤', sort: 1 };
    case 'AppStartupPage':
      return { image: 'https://example.com/start.png', name: `启动页${n}`, appType: 1, displaySeconds: 3, startDate: '2026-11-01', endDate: '2026-12-31' };
    case 'Poster':
      return { kind: 1, image: 'https://example.com/poster.png', title: `海报${n}`, displaySeconds: 10, startDate: '2026-11-01', endDate: '2026-12-31', audience: 3, schoolIds: [schoolId] };
    case 'AppFrame':
      return { name: `功能${n}`, code: `fn${n}` };
    case 'Questionnaire':
      return {
        title: `满意度调查${n}`,
        startDate: '2026-11-01',
        endDate: '2026-12-31',
        audience: 3,
        schoolIds: [schoolId],
        questions: [
          { title: '您对接送服务满意吗？', type: 1, isRequired: true, options: '满意\n一般\n不满意' },
          { title: '其他建议', type: 3, isRequired: false },
        ],
      };
    case 'ScreenChatContent':
      return { schoolId, content: `欢迎来到幼儿园${n}`, startDate: '2026-11-01', endDate: '2026-12-31' };
    case 'AppMusic':
      return { name: `儿歌${n}`, singer: '童声合唱团', style: 4, usedBy: 3, file: await storedUpload(t, silentWav(2), 'wav') };
    case 'AppCooperationPlatform':
      return { name: `合作平台${n}`, platformType: 1, merchantNo: `M${n}`, appId: `wx${n}`, apiKey: `key-${n}-secret-value` };
    case 'MarketCategory':
      return { name: `分类${n}` };
    case 'MarketMerchant':
      return { name: `商户${n}`, contactName: '李四', contactPhone: '0571-88886666', settlementBank: '工商银行', settlementAccount: '6222 0000 1111', commissionPercent: 15 };
    case 'MarketCommodity': {
      const { categoryId, merchantId } = await mallCatalogue(t);
      return { title: `绘本${n}`, subtitle: '儿童读物', categoryId, merchantId, unitPrice: 2_990, stockCount: 50, detail: '<p>精装<strong>绘本</strong></p>' };
    }
    case 'MarketCommodityRelease':
      return { title: `发布${n}`, commodityId: await releasedCommodity(t, { stock: 5 }), startDate: '2026-11-01', endDate: '2026-12-31', audience: 3, schoolIds: [schoolId] };
    case 'MarketAppAd':
      return { image: 'https://example.com/ad.png', title: `轮播${n}`, position: 1, startDate: '2026-11-01', endDate: '2026-12-31', audience: 1 };
    case 'MarketCarouselAd':
      return { kind: 1, image: 'https://example.com/ad.png', title: `商城轮播${n}`, position: 2, startDate: '2026-11-01', endDate: '2026-12-31', audience: 3, schoolIds: [schoolId] };
    case 'MarketAddress': {
      const { parentId } = await parentWithAddress(t, schoolId);
      return { parentId, consigneeName: '赵六', consigneePhone: '13700002222', province: '浙江省', city: '杭州市', area: '西湖区', detail: `文三路 ${n} 号` };
    }
    case 'MarketOrder': {
      const { parentId } = await parentWithAddress(t, schoolId);
      return { parentId, consigneeName: '赵六', consigneePhone: '13700002222', deliveryAddress: '浙江省杭州市西湖区文三路 1 号', items: [{ commodityId: await releasedCommodity(t, { stock: 5 }), quantity: 2 }] };
    }
    case 'Commodity':
      return { title: `葱米水杯${n}`, points: 500, stockCount: 20, detail: '保温杯' };
    case 'CommodityOrder': {
      const { parentId } = await parentWithAddress(t, schoolId);
      await postPoints(t.db, parentId, { kind: 1, amount: 1_000, source: `fixture:${n}`, reason: 'fixture', now: new Date() });
      return { parentId, commodityId: await pointsCommodity(t, 5), quantity: 1, consigneeName: '赵六', consigneePhone: '13700002222', deliveryAddress: '浙江省杭州市西湖区文三路 1 号' };
    }
    case 'Coupon':
      return { title: `满100减10 ${n}`, scope: 1, kind: 1, amountOff: 1_000, threshold: 10_000, total: 100, perParentLimit: 1, startDate: '2026-01-01', endDate: '2099-12-31', targetKind: 2, schoolIds: [schoolId] };
    case 'CommodityComment': {
      const { orderId, commodityId } = await receivedOrder(t, schoolId);
      return { orderId, commodityId, score: 5, content: `质量很好${n}` };
    }
    case 'AlbumSpec':
      return { name: `成长册规格${n}`, trimWidthMm: 210, trimHeightMm: 285, bleedMm: 3, pageCount: 24, binding: 3, paper: 2 };
    case 'AlbumPriceConfig':
      return { specId: (await albumTaskRows(t, schoolId)).specId, unitPriceJD: 12_800, unitPriceZC: 6_800, unitPriceSJ: 1_990 };
    case 'AlbumTemplate':
      return { name: `模板${n}`, specId: (await albumTaskRows(t, schoolId)).specId, coverTitle: '我的成长', layout: 2, captions: true };
    case 'AlbumTask': {
      const { templateId, classId } = await albumTaskRows(t, schoolId);
      return { name: `任务${n}`, schoolId, classId, templateId, term: '2026秋季', deadline: '2026-12-31' };
    }
    case 'AlbumPhoto': {
      const { taskId, studentId } = await albumTaskRows(t, schoolId);
      return { taskId, studentId, image: await storedUpload(t, photoOf(300, 200, 1), 'jpg'), caption: '第一天' };
    }
    case 'AlbumBook': {
      const { taskId, studentId } = await albumTaskRows(t, schoolId);
      return { taskId, studentId };
    }
    case 'AlbumOrder': {
      const { bookId, parentId } = await doneAlbumBook(t, schoolId);
      return { kind: 1, bookId, parentId, copies: 2, consigneeName: '赵六', consigneePhone: '13700002222', deliveryAddress: '浙江省杭州市西湖区文三路 1 号' };
    }
    default:
      throw new Error(`no fixture for ${def.name}`);
  }
}

/** A coupon anyone may claim (all parents, amount off), for samples of its grants. */
export async function insertCoupon(t: TestApp, overrides: Record<string, unknown> = {}): Promise<number> {
  const [coupon] = await t.db
    .insert(coupons)
    .values({ title: `券${unique()}`, state: 1, scope: 1, kind: 1, amountOff: 500, threshold: 0, total: 100, issued: 0, perParentLimit: 1, startDate: '2020-01-01', endDate: '2099-12-31', targetKind: 1, ...overrides })
    .returning({ id: coupons.id });
  return coupon!.id;
}

/**
 * A stored row of each log family, inside the given school where the log has one. Logs have no Add
 * route: their rows come from the product (logins, writes) or from terminals, so the family test
 * inserts this row itself. A log family without one fails the family test, by name.
 */
/** A new parent of the school and one of the school's children, for the parent-side log samples. */
async function sampleParentOf(t: TestApp, schoolId: number, n: string): Promise<{ parentId: number; studentId: number }> {
  const [parent] = await t.db.insert(parents).values({ phoneNum: `157${n.padStart(8, '0').slice(-8)}`, name: `家长${n}`, schoolId }).returning({ id: parents.id });
  const [student] = await t.db.insert(students).values({ schoolId, name: `孩子${n}` }).returning({ id: students.id });
  return { parentId: parent!.id, studentId: student!.id };
}

export async function insertLogSample(t: TestApp, def: ResourceDef, schoolId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  const n = unique();
  let row: Record<string, unknown>;
  switch (def.name) {
    case 'AlbumBookVersion': {
      const { bookId, parentId, studentId } = await doneAlbumBook(t, schoolId);
      const [book] = await t.db.select({ layout: albumBooks.layout }).from(albumBooks).where(eq(albumBooks.id, bookId));
      row = { createdAt: new Date(Date.now() - 60_000), title: `定制${n}`, versionNo: 1, bookId, schoolId, studentId, parentId, changeCount: 0, changes: [], layout: book!.layout, state: 1 };
      break;
    }
    case 'LoginLog':
      row = { loginName: `sample${n}`, ip: '10.0.0.1', userAgent: 'vitest', outcome: 'success', userId: await userIdOf(t, 'admin'), createdAt: new Date() };
      break;
    case 'OperationLog':
      row = { userId: await userIdOf(t, 'admin'), family: 'School', action: 'update', ids: [schoolId], changes: { schoolName: ['旧', '新'] } };
      break;
    case 'RecognitionRecord': {
      const [device] = await t.db.select({ id: devices.id }).from(devices).where(eq(devices.schoolId, schoolId)).limit(1);
      const [student] = await t.db.select({ id: students.id, name: students.name }).from(students).where(eq(students.schoolId, schoolId)).limit(1);
      row = {
        recognizedAt: new Date(Date.now() - 60_000),
        schoolId,
        deviceId: device!.id,
        personKind: 1,
        personId: student!.id,
        personName: student!.name,
        direction: 1,
        similarity: 95.5,
        temperature: 36.5,
        eventSerial: Number(n),
        success: true,
      };
      break;
    }
    case 'TerminalLog': {
      const [device] = await t.db.select({ id: devices.id }).from(devices).where(eq(devices.schoolId, schoolId)).limit(1);
      row = { loggedAt: new Date(Date.now() - 60_000), deviceId: device!.id, schoolId, level: 'warn', module: 'door', message: `门未关闭${n}`, logSerial: Number(n) };
      break;
    }
    case 'PlatformLog':
      row = { level: 'error', message: `sample failure ${n}`, requestId: `req-${n}`, method: 'POST', route: '/api/School/Search', statusCode: 500, userId: await userIdOf(t, 'admin'), stack: 'Error: sample\n    at test' };
      break;
    case 'SmsOutbox':
      row = { phone: `1380000${String(Number(n) % 10_000).padStart(4, '0')}`, content: `【校园】验证码 ${String(Number(n) % 1_000_000).padStart(6, '0')}，5 分钟内有效。`, createdAt: new Date() };
      break;
    case 'PaymentProviderCall':
      row = {
        createdAt: new Date(),
        provider: 'demo',
        operation: 'refund',
        reference: `RF${n}`,
        outcome: 'ok',
        durationMs: 3,
        request: { outRefundNo: `RF${n}`, refundAmount: 100 },
        response: { outcome: 'succeeded' },
      };
      break;
    case 'DeveloperDelivery': {
      // An attempt names its developer: a developer of its own, reading the school.
      const [developer] = await t.db.insert(developers).values({ name: `开发者${n}`, appId: `dev_sample${n}`, callbackUrl: 'https://partner.example.com/hook', enabled: true }).returning({ id: developers.id });
      row = {
        attemptedAt: new Date(Date.now() - 60_000),
        developerId: developer!.id,
        deliveryId: `dlv_sample${n}`,
        attempt: 1,
        eventCount: 3,
        outcome: 'retrying',
        httpStatus: 503,
        durationMs: 12,
        nextAttemptAt: new Date(Date.now() + 30_000),
        callbackUrl: 'https://partner.example.com/hook',
      };
      break;
    }
    case 'ServiceReceiver': {
      const { parentId, studentId } = await sampleParentOf(t, schoolId, n);
      row = { boundAt: new Date(Date.now() - 60_000), parentId, studentId, schoolId, active: true, receiving: true };
      break;
    }
    case 'ParentNotice': {
      const { parentId, studentId } = await sampleParentOf(t, schoolId, n);
      const at = new Date(Date.now() - 60_000);
      row = { createdAt: at, parentId, studentId, schoolId, kind: 1, title: '入园通知', content: `测试${n}已入园`, recognizedAt: at, minute: at };
      break;
    }
    case 'PushDelivery': {
      const { parentId } = await sampleParentOf(t, schoolId, n);
      row = { createdAt: new Date(Date.now() - 60_000), parentId, noticeId: Number(n), platform: 'android', token: `tok${n}`, title: '入园通知', content: `测试${n}`, state: 'givenUp', attempts: 6, lastError: 'HTTP 503' };
      break;
    }
    case 'AppUseEvent': {
      const { parentId } = await sampleParentOf(t, schoolId, n);
      row = { occurredAt: new Date(Date.now() - 60_000), parentId, schoolId, kind: 1, osType: 1, osVersion: '14', appType: 1, appVersion: '3.2.0', deviceModel: 'HUAWEI P60', sessionId: 1 };
      break;
    }
    case 'FeverAlert': {
      // Alerts come from the recognition insert (a trigger): a fever record raises the sample.
      const recognitionId = await insertLogSample(t, RecognitionRecord, schoolId, { temperature: 38.6 });
      const [alert] = await t.db.select({ id: feverAlerts.id }).from(feverAlerts).where(eq(feverAlerts.recognitionId, recognitionId));
      return alert!.id;
    }
    // Payments and ledger entries are only ever written through the ledger functions, so the sample is too.
    case 'PaymentRecord': {
      const { payment } = await recordPayment(t.db, { schoolId, amount: 12_345, channel: 'wechat', tradeNo: `T${n}`, paidAt: new Date(Date.now() - 60_000) });
      return payment.id;
    }
    case 'AgentFundEntry': {
      const accountId = await ensureAccount(t.db, FUND_ACCOUNT_SCHOOL, schoolId);
      const [entryId] = await postEntries(t.db, [{ accountId, accountType: FUND_ACCOUNT_SCHOOL, schoolId, kind: FUND_ENTRY_ADJUSTMENT, amount: 100, postedAt: new Date(Date.now() - 60_000), reason: 'sample' }]);
      return entryId!;
    }
    case 'PointsEntry': {
      const { parentId } = await parentWithAddress(t, schoolId);
      await postPoints(t.db, parentId, { kind: 1, amount: 10, source: `sample:${n}`, reason: 'sample', now: new Date(Date.now() - 60_000) });
      const found = (await t.db.execute(sql`select id from points_entries where parent_id = ${parentId}`)) as unknown as { rows: { id: number }[] };
      return Number(found.rows[0]!.id);
    }
    case 'CouponGrant': {
      const { parentId } = await parentWithAddress(t, schoolId);
      const couponId = await insertCoupon(t);
      return (await claimCoupon(t.db, parentId, couponId, new Date())).grantId;
    }
    default:
      throw new Error(`no log sample for ${def.name}`);
  }
  const table = tableOf(def);
  const [stored] = await t.db.insert(table).values({ ...row, ...overrides }).returning({ id: columnOf(table, 'id') });
  return Number(stored!.id);
}

/**
 * The fields a workflow family's first transition (from its initial state) needs, beyond `id`: the
 * generic family test runs it on the family's sample row. A transition that asks for required
 * fields has no sample until one is written here, and that family's test fails.
 */
export async function sampleTransitionFields(t: TestApp, def: ResourceDef, transition: TransitionDef): Promise<Record<string, unknown>> {
  switch (`${def.name}.${transition.verb}`) {
    case 'School.Examine':
      return { isPassed: true, remark: '资料齐全' };
    case 'UserFeedback.Reply':
      return { reply: '已收到，我们会尽快处理' };
    case 'LiveFeedback.Handle':
      return { result: '已联系直播服务商' };
    case 'MaintenanceTicket.Assign':
      return { assigneeId: await userIdOf(t, 'admin'), remark: '请尽快处理' };
    // The refund password's MD5: the caller may have none, so the call is refused, but only after its scope.
    case 'Refund.Refund':
      return { refundAmount: 100, reauthPassword: md5Hex('Refund@1') };
    case 'Refund.Retry':
      return { reauthPassword: md5Hex('Refund@1') };
    case 'MarketOrder.Ship':
      return { carrier: '顺丰', trackingNo: 'SF1234567890' };
    case 'MarketOrder.RefundLine':
      return { lineNo: 1, refundAmount: 100, reason: '测试退款' };
    case 'CommodityOrder.Ship':
      return { carrier: '顺丰', trackingNo: 'SF1234567890' };
    default: {
      const required = Object.entries(transition.fields ?? {}).filter(([, field]) => field.required);
      if (required.length > 0 || transition.reauth) throw new Error(`no sample fields for ${def.name}.${transition.verb}`);
      return {};
    }
  }
}

/** The school id a row belongs to (for scope assertions). */
export function schoolOfRow(def: ResourceDef, row: Record<string, unknown>): unknown {
  if (def.scope.via === 'self') return row.id;
  if (def.scope.via === 'school') return row[def.scope.field];
  return undefined;
}

/**
 * The agent a row belongs to by its family's `agentOwner` (a column of the row, or of the row its
 * `through` reference names), read from the database; null when the family declares none or the row
 * has no owner. Such rows are also read (never written) by that agent and its child accounts.
 */
export async function agentOwnerOfRow(t: TestApp, def: ResourceDef, row: Record<string, unknown>): Promise<number | null> {
  const owner = def.scope.via === 'school' ? def.scope.agentOwner : undefined;
  if (!owner) return null;
  const table = tableOf(def);
  if (!owner.through) {
    const [found] = await t.db.select({ agentId: columnOf(table, owner.field) }).from(table).where(eq(columnOf(table, 'id'), row.id as number));
    return (found?.agentId as number | null | undefined) ?? null;
  }
  const through = def.fields[owner.through];
  if (through?.kind !== 'reference') throw new Error(`${def.name}.${owner.through} is no reference`);
  const target = tableOf(RESOURCES[through.family]!);
  const [found] = await t.db
    .select({ agentId: columnOf(target, owner.field) })
    .from(table)
    .innerJoin(target, eq(columnOf(target, through.key ?? 'id'), columnOf(table, owner.through)))
    .where(eq(columnOf(table, 'id'), row.id as number));
  return (found?.agentId as number | null | undefined) ?? null;
}

export const families = Object.values(RESOURCES);

export function viewQuery(def: ResourceDef): string {
  return `view=${def.views[0]!.frame}`;
}

export async function readWorkbook(response: LightMyRequestResponse): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}
