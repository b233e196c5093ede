/**
 * The parent app's channel (`/api/App/*`, docs/parent-app.md): its paths and the zod schemas of its
 * requests and answers. Its sessions are its own: a parent's token opens no console call, and a
 * console token no call here. Every write takes an `Idempotency-Key` header.
 */
import { z } from 'zod';
import { messageText } from './messages.js';
import { phoneSchema } from './phones.js';
import { SERVICE_STATES } from './resources/parents.js';
import { questionAnswerSchema } from './resources/questionnaire.js';
import { APP_USE_MAX_BATCH } from './resources/app-use.js';

export const APP_PATHS = {
  sendSignInCode: '/api/App/SendSignInCode',
  signIn: '/api/App/SignIn',
  signOut: '/api/App/SignOut',
  children: '/api/App/Children',
  recognitions: '/api/App/Recognitions',
  inbox: '/api/App/Inbox',
  markNoticesRead: '/api/App/MarkNoticesRead',
  schoolNotices: '/api/App/SchoolNotices',
  help: '/api/App/Help',
  services: '/api/App/Services',
  buyService: '/api/App/BuyService',
  payments: '/api/App/Payments',
  refunds: '/api/App/Refunds',
  applyRefund: '/api/App/ApplyRefund',
  registerPushToken: '/api/App/RegisterPushToken',
  questionnaires: '/api/App/Questionnaires',
  questionnaire: '/api/App/GetQuestionnaire',
  answerQuestionnaire: '/api/App/AnswerQuestionnaire',
  reportUse: '/api/App/ReportUse',
} as const;

/** The header every write of the channel carries: a replay with the same key answers the first answer. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const idempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_:.-]{8,100}$/);

const id = z.number().int().min(1).max(2_147_483_647);
const queryId = z.coerce.number().int().min(1).max(2_147_483_647);
const md5Hex = z.string().regex(/^[a-f0-9]{32}$/i, messageText('validation.md5'));
const smsCode = z.string().regex(/^\d{6}$/, messageText('validation.smsCode'));
const businessDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const appSendSignInCodeSchema = z.strictObject({ phoneNum: phoneSchema('mobile') });

/** Sign-in with the MD5 hex of the app password, or with a code sent by SendSignInCode: exactly one of the two. */
export const appSignInSchema = z
  .strictObject({ phoneNum: phoneSchema('mobile'), password: md5Hex.optional(), smsCode: smsCode.optional() })
  .refine((body) => (body.password === undefined) !== (body.smsCode === undefined), { message: messageText('validation.passwordOrSmsCode'), path: ['password'] });

export const appSessionSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  parent: z.object({ id: z.number(), name: z.string(), phoneNum: z.string() }),
});

export const appChildSchema = z.object({
  id: z.number(),
  name: z.string(),
  schoolId: z.number(),
  schoolName: z.string(),
  classId: z.number().nullable(),
  className: z.string().nullable(),
  /** A signed, expiring address (or null without a photo). */
  photo: z.string().nullable(),
});
export type AppChild = z.infer<typeof appChildSchema>;

/** A child's recognitions on one China-time day (today when `date` is left out). */
export const appRecognitionsQuerySchema = z.object({ studentId: queryId, date: businessDate.optional() });
export const appRecognitionSchema = z.object({
  id: z.number(),
  recognizedAt: z.string(),
  /** 1 in (arrival), 2 out (departure). */
  direction: z.number(),
  temperature: z.number().nullable(),
  snapshot: z.string().nullable(),
});
export const appRecognitionsSchema = z.object({
  date: z.string(),
  arrival: appRecognitionSchema.nullable(),
  departure: appRecognitionSchema.nullable(),
  items: z.array(appRecognitionSchema),
});
export type AppRecognitions = z.infer<typeof appRecognitionsSchema>;

export const appPageQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1), size: z.coerce.number().int().min(1).max(100).default(20) });
export const appInboxQuerySchema = appPageQuerySchema.extend({ unreadOnly: z.enum(['true', 'false']).default('false').transform((value) => value === 'true') });
export const appInboxSchema = z.object({
  rows: z.array(
    z.object({
      id: z.number(),
      studentId: z.number(),
      /** NOTICE_TEMPLATE_KIND_OPTIONS: 1 arrival, 2 departure. */
      kind: z.number(),
      title: z.string(),
      content: z.string(),
      createdAt: z.string(),
      readAt: z.string().nullable(),
      /** The recognition's snapshot, a signed address (or null). */
      snapshot: z.string().nullable(),
    }),
  ),
  total: z.number(),
  unread: z.number(),
});
export type AppInbox = z.infer<typeof appInboxSchema>;
export const appMarkNoticesReadSchema = z.strictObject({ ids: z.union([z.array(id).min(1).max(500), z.literal('all')]) });

export const appSchoolNoticeSchema = z.object({ id: z.number(), title: z.string(), content: z.string(), startDate: z.string().nullable(), endDate: z.string().nullable(), createdAt: z.string() });
export const appHelpSchema = z.object({ id: z.number(), category: z.number(), title: z.string(), content: z.string() });

export const appChargeItemSchema = z.object({ id: z.number(), name: z.string(), unitPrice: z.number(), serviceMonths: z.number() });
export const appChildServiceSchema = z.object({
  studentId: z.number(),
  studentName: z.string(),
  schoolId: z.number(),
  state: z.enum(SERVICE_STATES),
  serviceTo: z.string().nullable(),
  trialTo: z.string().nullable(),
  trialDaysLeft: z.number(),
  receiving: z.boolean(),
  /** What the parent can buy for the child (empty when the school does not sell the service). */
  chargeItems: z.array(appChargeItemSchema),
});
export type AppChildService = z.infer<typeof appChildServiceSchema>;

/** How the app pays: `app` answers the parameters the WeChat SDK opens; `native` a code to scan. */
export const APP_PAY_SCENES = ['app', 'native'] as const;
export const appBuyServiceSchema = z.strictObject({ studentId: id, chargeItemId: id, scene: z.enum(APP_PAY_SCENES).default('app') });
export type AppBuyService = z.infer<typeof appBuyServiceSchema>;

/** The parameters WeChat's app SDK takes to open the payment (APP 调起支付, signed by the merchant). */
export const wechatAppPayParamsSchema = z.object({
  appid: z.string(),
  partnerid: z.string(),
  prepayid: z.string(),
  package: z.literal('Sign=WXPay'),
  noncestr: z.string(),
  timestamp: z.string(),
  sign: z.string(),
});
export type WechatAppPayParams = z.infer<typeof wechatAppPayParamsSchema>;

export const appOrderSchema = z.object({
  outTradeNo: z.string(),
  amount: z.number(),
  /** `paid`: settled (the payment is recorded and the service extended); `pending`: the parent pays in WeChat. */
  outcome: z.enum(['paid', 'pending']),
  provider: z.string(),
  payParams: wechatAppPayParamsSchema.nullable(),
  payUrl: z.string().nullable(),
  paymentId: z.number().nullable(),
  serviceTo: z.string().nullable(),
});
export type AppOrder = z.infer<typeof appOrderSchema>;

export const appPaymentSchema = z.object({
  id: z.number(),
  outTradeNo: z.string(),
  paidAt: z.string(),
  amount: z.number(),
  refundedAmount: z.number(),
  studentId: z.number().nullable(),
  chargeItemId: z.number().nullable(),
  chargeItemName: z.string().nullable(),
  serviceFrom: z.string().nullable(),
  serviceTo: z.string().nullable(),
});
export const appPaymentsSchema = z.object({ rows: z.array(appPaymentSchema), total: z.number() });

export const appApplyRefundSchema = z.strictObject({ paymentId: id, reason: z.string().trim().min(1).max(200) });
export const appRefundSchema = z.object({
  id: z.number(),
  paymentId: z.number(),
  outTradeNo: z.string(),
  reason: z.string(),
  /** REFUND_STATE_OPTIONS. */
  state: z.number(),
  refundAmount: z.number().nullable(),
  createdAt: z.string(),
});
export const appRefundsSchema = z.object({ rows: z.array(appRefundSchema), total: z.number() });

export const appRegisterPushTokenSchema = z.strictObject({ platform: z.enum(['ios', 'android']), token: z.string().trim().min(8).max(256), appVersion: z.string().trim().max(32).optional() });

export const appQuestionnaireListSchema = z.array(z.object({ id: z.number(), title: z.string(), endDate: z.string(), answered: z.boolean() }));
export const appQuestionnaireQuerySchema = z.object({ id: queryId });
export const appAnswerQuestionnaireSchema = z.strictObject({
  questionnaireId: id,
  answers: z.array(questionAnswerSchema).max(50),
});
export type AppAnswerQuestionnaire = z.infer<typeof appAnswerQuestionnaireSchema>;

/** When the app saw it: an ISO time with its offset (the app may send what it kept offline, up to a week old). */
const eventTime = z.iso.datetime({ offset: true });
/** A session the app opened, with the phone and app it runs on. */
export const appUseSessionSchema = z.strictObject({
  kind: z.literal('session'),
  at: eventTime,
  os: z.enum(['android', 'ios']),
  osVersion: z.string().trim().min(1).max(20),
  appType: z.enum(['parent', 'teacher']),
  appVersion: z.string().regex(/^\d{1,5}(\.\d{1,5}){0,3}$/),
  deviceModel: z.string().trim().min(1).max(60),
});
/** A function used: a tile's code (appFunctionManage) or a page of the app. */
export const appUseFunctionSchema = z.strictObject({
  kind: z.literal('function'),
  at: eventTime,
  code: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/),
});
export const appReportUseSchema = z.strictObject({
  events: z.array(z.discriminatedUnion('kind', [appUseSessionSchema, appUseFunctionSchema])).min(1).max(APP_USE_MAX_BATCH),
});
export type AppReportUse = z.infer<typeof appReportUseSchema>;
export const appReportUseAnswerSchema = z.object({ accepted: z.number() });
