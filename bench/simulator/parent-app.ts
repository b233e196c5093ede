/**
 * One parent's app as simulate:parents plays it: signs in through the channel (/api/App/*) and makes
 * the calls the app makes, every write under a fresh Idempotency-Key. Each call answers the envelope's
 * data or throws ApiError (console-client.ts) with the status and code the console answered.
 */
import { ALBUM_APP_PATHS, APP_MALL_PATHS, APP_PATHS, type AppAlbumOrderAnswer, type AppAlbumVersionSave, IDEMPOTENCY_KEY_HEADER, type AppClaimableCoupon, type AppCouponGrant, type AppMallCommodity, type AppMallOrder, type AppMallPayment, QUESTION_TYPE_SINGLE, QUESTION_TYPE_TEXT, type AppAnswerQuestionnaire, type AppChild, type AppChildService, type AppInbox, type AppOrder, type AppReportUse, type Envelope, type FieldError, type PublicQuestionnaire } from '@campus/contract';
import { createHash, randomUUID } from 'node:crypto';
import { ApiError } from './console-client.js';
import type { Random } from './random.js';

export class ParentApp {
  private constructor(
    readonly base: string,
    readonly phoneNum: string,
    private readonly token: string,
  ) {}

  static async signIn(base: string, phoneNum: string, password: string): Promise<ParentApp> {
    const data = await appCall<{ token: string }>(base, 'POST', APP_PATHS.signIn, { phoneNum, password: createHash('md5').update(password).digest('hex') });
    return new ParentApp(base, phoneNum, data.token);
  }

  private call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return appCall<T>(this.base, method, path, body, this.token);
  }

  children = () => this.call<AppChild[]>('GET', APP_PATHS.children);
  services = () => this.call<AppChildService[]>('GET', APP_PATHS.services);
  recognitions = (studentId: number) => this.call<{ items: unknown[] }>('GET', `${APP_PATHS.recognitions}?studentId=${studentId}`);
  inbox = () => this.call<AppInbox>('GET', `${APP_PATHS.inbox}?page=1&size=20`);
  markRead = (ids: number[]) => this.call<{ marked: number }>('POST', APP_PATHS.markNoticesRead, { ids });
  schoolNotices = () => this.call<unknown[]>('GET', APP_PATHS.schoolNotices);
  buy = (studentId: number, chargeItemId: number) => this.call<AppOrder>('POST', APP_PATHS.buyService, { studentId, chargeItemId, scene: 'app' });
  payments = () => this.call<{ rows: { id: number; amount: number; refundedAmount: number }[] }>('GET', `${APP_PATHS.payments}?size=50`);
  refunds = () => this.call<{ rows: { paymentId: number }[] }>('GET', `${APP_PATHS.refunds}?size=50`);
  applyRefund = (paymentId: number, reason: string) => this.call<{ id: number }>('POST', APP_PATHS.applyRefund, { paymentId, reason });
  registerPush = (token: string) => this.call<{ id: number }>('POST', APP_PATHS.registerPushToken, { platform: 'android', token, appVersion: '3.2.0' });
  questionnaires = () => this.call<{ id: number; answered: boolean }[]>('GET', APP_PATHS.questionnaires);
  questionnaire = (id: number) => this.call<PublicQuestionnaire>('GET', `${APP_PATHS.questionnaire}?id=${id}`);
  answer = (questionnaireId: number, answers: AppAnswerQuestionnaire['answers']) => this.call<{ answerId: number }>('POST', APP_PATHS.answerQuestionnaire, { questionnaireId, answers });
  reportUse = (events: AppReportUse['events']) => this.call<{ accepted: number }>('POST', APP_PATHS.reportUse, { events });
  signOut = () => this.call<null>('POST', APP_PATHS.signOut);

  // Albums (docs/parent-app.md "Albums").
  albumBooks = () => this.call<{ id: number; layout: { pages: { page: number; slots: { kind: string }[] }[] } | null }[]>('GET', ALBUM_APP_PATHS.books);
  albumPhotos = (bookId: number) => this.call<{ id: number }[]>('GET', `${ALBUM_APP_PATHS.photos}?bookId=${bookId}`);
  albumVersions = (bookId: number) => this.call<{ versionNo: number; state: number }[]>('GET', `${ALBUM_APP_PATHS.versions}?bookId=${bookId}`);
  saveAlbumVersion = (save: AppAlbumVersionSave) => this.call<{ id: number; versionNo: number }>('POST', ALBUM_APP_PATHS.saveVersion, save);
  orderAlbum = (order: Record<string, unknown>) => this.call<AppAlbumOrderAnswer>('POST', ALBUM_APP_PATHS.order, order);

  // The mall (docs/parent-app.md "The mall").
  commodities = () => this.call<{ rows: AppMallCommodity[]; total: number }>('GET', `${APP_MALL_PATHS.commodities}?page=1&size=50`);
  commodity = (id: number) => this.call<AppMallCommodity & { comments: unknown[] }>('GET', `${APP_MALL_PATHS.commodity}?id=${id}`);
  addresses = () => this.call<{ id: number; isDefault: boolean }[]>('GET', APP_MALL_PATHS.addresses);
  saveAddress = (address: Record<string, unknown>) => this.call<{ id: number }>('POST', APP_MALL_PATHS.saveAddress, address);
  claimable = () => this.call<AppClaimableCoupon[]>('GET', APP_MALL_PATHS.claimableCoupons);
  claim = (couponId: number) => this.call<{ grantId: number }>('POST', APP_MALL_PATHS.claimCoupon, { couponId });
  coupons = () => this.call<AppCouponGrant[]>('GET', APP_MALL_PATHS.coupons);
  placeOrder = (order: { lines: { commodityId: number; quantity: number }[]; addressId: number; couponGrantId?: number; points?: number }) =>
    this.call<{ orderId: number; orderNo: string; payAmount: number }>('POST', APP_MALL_PATHS.placeOrder, order);
  payOrder = (orderId: number) => this.call<AppMallPayment>('POST', APP_MALL_PATHS.payOrder, { orderId, scene: 'app' });
  orders = () => this.call<{ rows: AppMallOrder[] }>('GET', `${APP_MALL_PATHS.orders}?page=1&size=50`);
  cancelOrder = (orderId: number) => this.call<null>('POST', APP_MALL_PATHS.cancelOrder, { orderId });
  confirmReceipt = (orderId: number) => this.call<null>('POST', APP_MALL_PATHS.confirmReceipt, { orderId });
  comment = (orderId: number, commodityId: number, score: number, content: string) => this.call<{ id: number }>('POST', APP_MALL_PATHS.comment, { orderId, commodityId, score, content });
  applyMallRefund = (orderId: number, lineNo: number, reason: string) => this.call<{ id: number }>('POST', APP_MALL_PATHS.applyRefund, { orderId, lineNo, reason });
  points = () => this.call<{ balance: number }>('GET', `${APP_MALL_PATHS.points}?page=1&size=20`);
  pointsShop = () => this.call<{ id: number; points: number; stockCount: number }[]>('GET', APP_MALL_PATHS.pointsShop);
  placePointsOrder = (commodityId: number, addressId: number) => this.call<{ orderId: number; points: number }>('POST', APP_MALL_PATHS.placePointsOrder, { commodityId, quantity: 1, addressId });
}

async function appCall<T>(base: string, method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    headers[IDEMPOTENCY_KEY_HEADER] = `sim-${randomUUID()}`;
  }
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(`${base}${path}`, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
    // The server sheds load with 503: the app waits and tries again, as it would.
    if (response.status === 503 && attempt < 5) {
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
      continue;
    }
    const envelope = (await response.json()) as Envelope<T>;
    if (envelope.code !== 200) throw new ApiError(response.status, envelope as Envelope<{ errors?: FieldError[] } | null>, `${method} ${path}`);
    return envelope.data;
  }
}

/** Answers a parent gives a questionnaire: an option of each choice question, a sentence for some text ones. */
export function answersFor(form: PublicQuestionnaire, random: Random): AppAnswerQuestionnaire['answers'] {
  return form.questions.flatMap((question): AppAnswerQuestionnaire['answers'] => {
    if (question.type === QUESTION_TYPE_TEXT) return question.isRequired || random.chance(0.3) ? [{ questionNo: question.questionNo, text: random.pick(['很好，谢谢老师！', '希望增加户外活动。', '接送通知很及时。']) }] : [];
    const single = question.type === QUESTION_TYPE_SINGLE;
    const count = single ? 1 : random.int(1, Math.min(3, question.options.length));
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(random.int(1, question.options.length));
    return [{ questionNo: question.questionNo, optionNos: [...chosen] }];
  });
}

/** The phone and app a simulated parent reports its sessions from, picked once per parent. */
export function deviceFor(random: Random): Omit<Extract<AppReportUse['events'][number], { kind: 'session' }>, 'kind' | 'at'> {
  const ios = random.chance(0.4);
  return {
    os: ios ? 'ios' : 'android',
    osVersion: ios ? random.pick(['16.7', '17.4', '17.5']) : random.pick(['12', '13', '14']),
    appType: 'parent',
    appVersion: random.pick(['3.1.0', '3.2.0', '3.2.0']),
    deviceModel: ios ? random.pick(['iPhone 15', 'iPhone 14', 'iPhone 13']) : random.pick(['HUAWEI Mate 60', 'Xiaomi 14', 'OPPO Reno11', 'vivo X100']),
  };
}
