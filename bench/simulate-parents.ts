/**
 * `npm run simulate:parents -- --parents 20 --rounds 3` plays parents against a running console
 * through the parent app's channel (docs/parent-app.md), as simulate:terminals plays the gates. An
 * operator (admin) gives each chosen parent an app password on parentUser, as support would; then
 * every parent signs in and, each round, reads its children, their services and today's gate records,
 * buys the service for a child that lacks it, reads and marks its notices (those the terminal
 * simulator's recognitions caused), answers the open questionnaires, now and then applies for a
 * refund, and plays the mall (simulator/mall-play.ts: browse, address, coupons, order with coupon and
 * points, pay, confirm and comment on what staff shipped, cancel, a line's refund, the points shop);
 * customises its children's albums as new versions and orders them (simulator/album-play.ts);
 * between rounds the operator ships the paid mall orders, as staff would on mallOrderManage. The app
 * reports its session (phone, OS, app version) at sign-in and the functions it used each round
 * (ReportUse), which the app-use statistics count. It prints what it did, and every refusal it did
 * not expect, with the call and the answer.
 *
 * Options: --base http://127.0.0.1:8080, --parents 20, --rounds 3, --pause 2 (seconds between rounds),
 * --refunds 0.05 (chance per parent and round), --mall-refunds 0.1, --mall-cancels 0.1, --no-mall,
 * --album-edits 0.5 and --album-orders 0.2 (chances per book and round), --user admin, --password Admin@123, --captcha
 * (default CAPTCHA_FIXED_CODE, else 1234), --app-password Parent@2026, --seed.
 */
import { parseArgs } from 'node:util';
import { createHash } from 'node:crypto';
import { ApiError, ConsoleClient } from './simulator/console-client.js';
import { playAlbums } from './simulator/album-play.js';
import { playMall, shipPaidOrders } from './simulator/mall-play.js';
import { answersFor, deviceFor, ParentApp } from './simulator/parent-app.js';
import { Random } from './simulator/random.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: process.env.CONSOLE_URL ?? 'http://127.0.0.1:8080' },
    parents: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    pause: { type: 'string', default: '2' },
    refunds: { type: 'string', default: '0.05' },
    'mall-refunds': { type: 'string', default: '0.1' },
    'mall-cancels': { type: 'string', default: '0.1' },
    'no-mall': { type: 'boolean', default: false },
    'album-edits': { type: 'string', default: '0.5' },
    'album-orders': { type: 'string', default: '0.2' },
    user: { type: 'string', default: 'admin' },
    password: { type: 'string', default: 'Admin@123' },
    captcha: { type: 'string', default: process.env.CAPTCHA_FIXED_CODE ?? '1234' },
    'app-password': { type: 'string', default: 'Parent@2026' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
  },
});

const base = values.base.replace(/\/$/, '');
const random = new Random(Number(values.seed));
const appPassword = values['app-password'];
const done: Record<string, number> = {};
const unexpected: string[] = [];
const count = (what: string) => (done[what] = (done[what] ?? 0) + 1);

/** Runs one call; a refusal listed in `expected` (by HTTP status) is counted, any other is reported. */
async function attempt<T>(what: string, call: () => Promise<T>, expected: number[] = []): Promise<T | undefined> {
  try {
    const answer = await call();
    count(what);
    return answer;
  } catch (error) {
    if (error instanceof ApiError && expected.includes(error.status)) {
      count(`${what} refused (${error.status}, expected)`);
      return undefined;
    }
    unexpected.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

interface ParentRow {
  id: number;
  version: number;
  phoneNum: string;
  enabled: boolean;
  studentIds: number[];
}

const operator = await ConsoleClient.login(base, values.user, values.password, values.captcha);
const candidates = (await operator.searchAll<ParentRow>('Parent', 'parentUser', { enabled: true }, 1000)).filter((row) => row.enabled !== false && row.studentIds.length > 0);
const chosen = [...candidates].sort(() => random.next() - 0.5).slice(0, Number(values.parents));
const md5 = createHash('md5').update(appPassword).digest('hex');
for (const row of chosen) {
  await attempt('operator set an app password', () => operator.call(`/api/Parent/Update?view=parentUser`, { id: row.id, version: row.version, password: md5 }));
}
console.log(`${chosen.length} parents of ${candidates.length} with children; app password set by ${values.user}`);

const apps: ParentApp[] = [];
for (const row of chosen) {
  const app = await attempt('signed in', () => ParentApp.signIn(base, row.phoneNum, appPassword));
  if (!app) continue;
  apps.push(app);
  await attempt('registered a push token', () => app.registerPush(`sim-${row.phoneNum}`));
  await attempt('reported the session', () => app.reportUse([{ kind: 'session', at: new Date().toISOString(), ...deviceFor(random) }]));
}

const shipped = { next: Date.now() % 1_000_000 };
/** The functions (tiles and pages) the app used this round, reported in one batch at the round's end. */
const used: string[] = [];
const use = (code: string) => used.push(code);

for (let round = 1; round <= Number(values.rounds); round += 1) {
  for (const app of apps) {
    used.length = 0;
    const children = (await attempt('read children', () => app.children())) ?? [];
    for (const child of children) if (await attempt('read gate records today', () => app.recognitions(child.id))) use('recognitions');
    const services = (await attempt('read services', () => app.services())) ?? [];
    use('services');
    for (const service of services) {
      const item = service.chargeItems[0];
      if (!item || service.state === 'inService' || service.state === 'free') continue;
      // The school may have stopped selling between the read and the buy: a 400 on the item is expected.
      const order = await attempt('bought the service', () => app.buy(service.studentId, item.id), [400]);
      if (order?.outcome === 'pending') count('order waiting for WeChat Pay');
    }
    const inbox = await attempt('read the inbox', () => app.inbox());
    if (inbox) use('inbox');
    const unread = inbox?.rows.filter((notice) => notice.readAt === null).map((notice) => notice.id) ?? [];
    if (unread.length > 0) await attempt('marked notices read', () => app.markRead(unread));
    await attempt('read school notices', () => app.schoolNotices());
    for (const open of (await attempt('listed questionnaires', () => app.questionnaires())) ?? []) {
      if (open.answered) continue;
      const form = await attempt('opened a questionnaire', () => app.questionnaire(open.id), [409]);
      // Another round (or a questionnaire closing meanwhile) may refuse: 409.
      if (form) await attempt('answered a questionnaire', () => app.answer(open.id, answersFor(form, random)), [409]);
      use('questionnaire');
    }
    if (random.chance(Number(values.refunds))) {
      const payments = (await attempt('read payments', () => app.payments()))?.rows ?? [];
      const applied = new Set(((await attempt('read refunds', () => app.refunds()))?.rows ?? []).map((refund) => refund.paymentId));
      const payment = payments.find((row) => row.refundedAmount < row.amount && !applied.has(row.id));
      if (payment) await attempt('applied for a refund', () => app.applyRefund(payment.id, random.pick(['孩子转学，申请退款', '重复购买', '服务未开通'])), [400]);
      use('payments');
    }
    await playAlbums(app, random, attempt, { edit: Number(values['album-edits']), order: Number(values['album-orders']) });
    const now = Date.now();
    const events = used.map((code, i) => ({ kind: 'function' as const, at: new Date(now - (used.length - i) * 1000).toISOString(), code }));
    if (events.length > 0) await attempt('reported app use', () => app.reportUse(events));
  }
  if (!values['no-mall']) {
    for (const app of apps) await playMall(app, random, attempt, { refund: Number(values['mall-refunds']), cancel: Number(values['mall-cancels']) });
    await shipPaidOrders(operator, attempt, shipped);
  }
  console.log(`round ${round}: ${JSON.stringify(done)}`);
  if (round < Number(values.rounds)) await new Promise((resolve) => setTimeout(resolve, Number(values.pause) * 1000));
}
for (const app of apps) await attempt('signed out', () => app.signOut());

console.log(`done: ${JSON.stringify(done)}`);
if (unexpected.length > 0) {
  console.log(`${unexpected.length} refusal(s) not expected:`);
  for (const line of unexpected) console.log(`  ${line}`);
  process.exitCode = 1;
} else {
  console.log('no refusal that was not expected');
}
