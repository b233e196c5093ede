import type { SellerPosition, UserType } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { hashPassword, md5Hex } from '../platform/passwords.js';
import type { Database, Transaction } from '../db/client.js';
import { seedDemoDirectories } from './demo-directories.js';
import { seedDemoFamilies } from './demo-families.js';
import { seedDemoFinance } from './demo-finance.js';
import { bindDemoParents, seedDemoNotices } from './demo-parents.js';
import { seedDemoRefunds } from './demo-refunds.js';
import { seedDemoMall } from './demo-mall.js';
import { seedDemoHistories } from './demo-histories.js';
import { seedDemoOperations } from './demo-operations.js';
import { storeDemoMedia } from './demo-media.js';
import { seedDemoDeveloper } from './demo-developers.js';
import { seedDemoAlbums, storeDemoAlbumPhotos } from './demo-albums.js';
import { seedDemoCourseware, storeDemoCoursewareFiles } from './demo-courseware.js';
import { seedDemoParentApp } from './demo-parent-app.js';
import { seedDemoAppUse } from './demo-app-use.js';
import { rollUpAttendance } from '../reports/attendance-rollup.js';
import { advanceOverviewCounter } from '../reports/overview-counter.js';
import { seedDemoUpgrades } from './demo-upgrades.js';
import { installFamilies } from '../resources/families.js';
import type { UploadStorage } from '../platform/uploads.js';
import { agentAreas, salesAreas, salesTeamMembers, salesTeams, schools, settings, userSchools, users } from '../db/schema/index.js';

/** Marks a database that has received the demo data, so a second start seeds nothing twice. */
export const DEMO_SEEDED_KEY = 'seed.demo';

export interface DemoAccount {
  loginName: string;
  password: string;
  type: UserType;
  name: string;
  phoneNum: string;
  sellerPosition?: SellerPosition;
}

/** The demo logins, printed at start and used by the tests. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { loginName: 'admin', password: 'Admin@123', type: 'company', name: '系统管理员', phoneNum: '13800000001' },
  { loginName: 'sales1', password: 'Demo@123', type: 'sales', name: '王销售', phoneNum: '13800000002', sellerPosition: 'leader' },
  { loginName: 'sales2', password: 'Demo@123', type: 'sales', name: '李销售', phoneNum: '13800000003', sellerPosition: 'member' },
  { loginName: 'agent1', password: 'Demo@123', type: 'agent', name: '华东智慧校园代理', phoneNum: '13800000004' },
  { loginName: 'agent2', password: 'Demo@123', type: 'agent', name: '西南教育科技代理', phoneNum: '13800000005' },
  { loginName: 'child1', password: 'Demo@123', type: 'child', name: '华东代理-子账号', phoneNum: '13800000006' },
  { loginName: 'external1', password: 'Demo@123', type: 'external', name: '阳光幼儿园园长', phoneNum: '13800000007' },
  // Company technicians: the people maintenance tickets are assigned to.
  { loginName: 'ops1', password: 'Demo@123', type: 'company', name: '赵工（运维）', phoneNum: '13800000010' },
  { loginName: 'ops2', password: 'Demo@123', type: 'company', name: '钱工（运维）', phoneNum: '13800000011' },
];

interface DemoSchool {
  schoolName: string;
  province: string;
  city: string;
  area: string;
  schoolAddress: string;
  agent: 'agent1' | 'agent2';
  seller?: 'sales1' | 'sales2';
  /** Whether the school belongs to sales1's team directly. */
  inTeam?: boolean;
  /** 0 = licence not set yet (the badge), 1 required, 2 not needed. */
  licenseKeyRequired: number;
  schoolType: number;
}

const DEMO_SCHOOLS: readonly DemoSchool[] = [
  { schoolName: '北京市海淀区阳光幼儿园', province: '北京市', city: '北京市', area: '海淀区', schoolAddress: '学院路38号', agent: 'agent1', seller: 'sales1', inTeam: true, licenseKeyRequired: 1, schoolType: 1 },
  { schoolName: '上海市浦东新区星辰实验小学', province: '上海市', city: '上海市', area: '浦东新区', schoolAddress: '张江路100号', agent: 'agent1', seller: 'sales2', licenseKeyRequired: 1, schoolType: 2 },
  { schoolName: '杭州市西湖区育才幼儿园', province: '浙江省', city: '杭州市', area: '西湖区', schoolAddress: '文三路66号', agent: 'agent1', inTeam: true, licenseKeyRequired: 0, schoolType: 1 },
  { schoolName: '南京市鼓楼区金陵小学', province: '江苏省', city: '南京市', area: '鼓楼区', schoolAddress: '中山北路9号', agent: 'agent1', licenseKeyRequired: 0, schoolType: 2 },
  { schoolName: '广州市天河区启明幼儿园', province: '广东省', city: '广州市', area: '天河区', schoolAddress: '体育西路21号', agent: 'agent2', seller: 'sales1', licenseKeyRequired: 2, schoolType: 1 },
  { schoolName: '成都市武侯区锦城小学', province: '四川省', city: '成都市', area: '武侯区', schoolAddress: '科华北路7号', agent: 'agent2', licenseKeyRequired: 0, schoolType: 2 },
  { schoolName: '武汉市洪山区晨曦幼儿园', province: '湖北省', city: '武汉市', area: '洪山区', schoolAddress: '珞喻路152号', agent: 'agent2', licenseKeyRequired: 1, schoolType: 1 },
  { schoolName: '西安市雁塔区长安实验学校', province: '陕西省', city: '西安市', area: '雁塔区', schoolAddress: '小寨东路3号', agent: 'agent2', licenseKeyRequired: 0, schoolType: 4 },
];

function accountRow(account: DemoAccount, passwordHash: string, parentId: number | null) {
  const isAgent = account.type === 'agent';
  return {
    loginName: account.loginName,
    passwordHash,
    type: account.type,
    name: account.name,
    phoneNum: account.phoneNum,
    company: isAgent || account.type === 'child' ? account.name : 'Campus Ops',
    sellerPosition: account.sellerPosition ?? null,
    parentId,
    agentMktMrchId: isAgent ? `M${account.phoneNum.slice(-6)}` : null,
    agentMktMrchNm: isAgent ? account.name : null,
    servicePhone1: isAgent ? `400-800-${account.phoneNum.slice(-4)}` : null,
    email: `${account.loginName}@campus-ops.example`,
  };
}

/**
 * Inserts the demo accounts (child accounts after their agent, which they point to); a login name
 * that already exists, such as an `admin` created from ADMIN_INITIAL_PASSWORD, is kept as it is.
 */
async function insertAccounts(tx: Transaction, hashes: Map<string, string>): Promise<Map<string, number>> {
  const byType = (isChild: boolean) => DEMO_ACCOUNTS.filter((account) => (account.type === 'child') === isChild);
  const readIds = async () => new Map((await tx.select({ id: users.id, loginName: users.loginName }).from(users)).map((row) => [row.loginName, row.id]));
  await tx
    .insert(users)
    .values(byType(false).map((account) => accountRow(account, hashes.get(account.loginName)!, null)))
    .onConflictDoNothing({ target: users.loginName });
  const parents = await readIds();
  await tx
    .insert(users)
    .values(byType(true).map((account) => accountRow(account, hashes.get(account.loginName)!, parents.get('agent1')!)))
    .onConflictDoNothing({ target: users.loginName });
  return readIds();
}

/**
 * Loads the demo accounts, sales team and schools in one transaction, once per database: the
 * settings marker makes a second call (a second start) a no-op. Answers whether it seeded. `now`
 * ends the demo's months of payments and refunds (the tests pass their clock's, so the reports'
 * default periods hold them). With `storage`, the demo's pictures, songs and packages are put into the
 * upload store and shown on the startup page, poster, ad and music pages, and the version pages and
 * upgrade plans are seeded with them.
 */
export async function seedDemo(db: Database, now: Date = new Date(), storage?: UploadStorage): Promise<boolean> {
  // The demo writes some rows through the engine, which runs their families' hooks (a developer's app id).
  installFamilies();
  const isSeeded = async (reader: Database) => (await reader.select().from(settings).where(eq(settings.key, DEMO_SEEDED_KEY))).length > 0;
  if (await isSeeded(db)) return false;
  // Hashed before the transaction and in parallel: scrypt is slow on purpose.
  const hashes = new Map(
    await Promise.all(DEMO_ACCOUNTS.map(async (account) => [account.loginName, await hashPassword(md5Hex(account.password))] as const)),
  );
  // Files go into the store before the transaction (a store is no database); a lost race leaves a few unused files.
  const media = storage ? await storeDemoMedia(storage, now) : undefined;
  const albumPhotos = storage ? await storeDemoAlbumPhotos(storage, now) : undefined;
  const coursewareFiles = storage ? await storeDemoCoursewareFiles(storage, now) : undefined;
  const seeded = await db.transaction(async (tx) => {
    // Checked again inside the transaction: another instance may have seeded meanwhile.
    if (await isSeeded(tx)) return false;
    const ids = await insertAccounts(tx, hashes);
    const userId = (loginName: string) => ids.get(loginName)!;

    const [eastChina] = await tx
      .insert(salesAreas)
      .values([
        { name: '华东大区', provinces: '上海市,江苏省,浙江省,安徽省', remark: '演示数据' },
        { name: '华北大区', provinces: '北京市,天津市,河北省', cities: '北京市,天津市,石家庄市' },
        { name: '西南大区', provinces: '四川省,重庆市,云南省,贵州省' },
      ])
      .returning({ id: salesAreas.id });
    const [team] = await tx
      .insert(salesTeams)
      .values({ name: '华东销售一组', salesAreaId: eastChina!.id, leaderId: userId('sales1') })
      .returning({ id: salesTeams.id });
    await tx.insert(agentAreas).values([
      { agentId: userId('agent1'), province: '浙江省', city: '杭州市', isExclusive: true },
      { agentId: userId('agent1'), province: '江苏省', isExclusive: false },
      { agentId: userId('agent2'), province: '江苏省', city: '南京市', isExclusive: false },
      { agentId: userId('agent2'), province: '四川省', isExclusive: true },
    ]);
    await tx.insert(salesTeamMembers).values([
      { teamId: team!.id, userId: userId('sales1'), level: 1 },
      { teamId: team!.id, userId: userId('sales2'), level: 2 },
    ]);
    for (const loginName of ['sales1', 'sales2']) {
      await tx.update(users).set({ salesTeamId: team!.id }).where(eq(users.id, userId(loginName)));
    }

    const schoolRows = await tx
      .insert(schools)
      .values(
        DEMO_SCHOOLS.map((school, position) => ({
          schoolName: school.schoolName,
          province: school.province,
          city: school.city,
          area: school.area,
          schoolAddress: school.schoolAddress,
          agentId: userId(school.agent),
          sellerId: school.seller ? userId(school.seller) : null,
          salesTeamId: school.inTeam ? team!.id : null,
          licenseKeyRequired: school.licenseKeyRequired,
          schoolType: school.schoolType,
          examineState: position % 3 === 2 ? 0 : 1,
          contactName: '张老师',
          contactPhone: `1390000${String(position + 1).padStart(4, '0')}`,
        })),
      )
      .returning({ id: schools.id, schoolName: schools.schoolName, agentId: schools.agentId });
    const sunshine = schoolRows.find((school) => school.schoolName === DEMO_SCHOOLS[0]!.schoolName)!;
    await tx.insert(userSchools).values({ userId: userId('external1'), schoolId: sunshine.id });
    await seedDemoFamilies(
      tx,
      schoolRows.map((school) => ({ id: school.id, agentId: school.agentId! })),
      media?.snapshots.map((file) => file.url),
    );
    await seedDemoDirectories(tx);
    await seedDemoFinance(tx, schoolRows.map((school) => ({ id: school.id, agentId: school.agentId! })), now);
    await seedDemoRefunds(tx, now);
    await seedDemoHistories(tx, { operatorId: userId('admin'), technicianIds: [userId('ops1'), userId('ops2')] }, now);
    await seedDemoOperations(tx, schoolRows, new Date(), media);
    // Packages are files: without a store (a benchmark's seed) the version pages stay empty, like the music page.
    if (media) await seedDemoUpgrades(tx, userId('admin'), media.packages, now);
    await seedDemoDeveloper(tx, userId('admin'), schoolRows.slice(0, 2).map((school) => school.id), now);
    // After the refunds: those pick the newest service payments, which the mall's would otherwise be.
    await seedDemoMall(tx, schoolRows.map((school) => ({ id: school.id, agentId: school.agentId! })), userId('admin'), now);
    await bindDemoParents(tx, now);
    await seedDemoParentApp(tx, now);
    // After the players registered their devices, so that their children's notices are pushed to them.
    await seedDemoNotices(tx, now);
    // Photos are files: without a store (a benchmark's seed) the album pages start empty.
    if (storage && albumPhotos) {
      const agent2School = schoolRows.find((school) => school.agentId === userId('agent2'));
      await seedDemoAlbums(tx, userId('admin'), [sunshine.id, ...(agent2School ? [agent2School.id] : [])], albumPhotos, storage, now);
    }
    // Courseware is files too: without a store the courseware page starts empty.
    if (storage && coursewareFiles) {
      const agent2School = schoolRows.find((school) => school.agentId === userId('agent2'));
      await seedDemoCourseware(tx, userId('admin'), [sunshine.id, ...(agent2School ? [agent2School.id] : [])], coursewareFiles, storage, now);
    }
    // After the purchases: userStatistics counts their paying parents.
    await seedDemoAppUse(tx, now);

    await tx.insert(settings).values({ key: DEMO_SEEDED_KEY, value: new Date().toISOString() });
    return true;
  });
  // Rolled up at once (nothing else writes yet, so no record needs to settle): the attendance pages and
  // the cockpit open on the demo's figures instead of waiting for the job's first runs, and the
  // Overview's counter holds the demo's records (the Overview is exact without it, only slower).
  if (seeded) {
    await rollUpAttendance(db, now, { settleSeconds: 0, batches: Number.MAX_SAFE_INTEGER });
    await advanceOverviewCounter(db, { settleSeconds: 0, batches: Number.MAX_SAFE_INTEGER });
  }
  return seeded;
}
