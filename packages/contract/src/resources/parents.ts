/**
 * The parent's side of the safe-campus service (issue 28): the service a child holds (paid until), the
 * parents receiving its notices (the school's `parentCount` places, trial per receiving parent), the
 * parents' inbox of notices the gates' recognitions make, and the push outbox delivering them to phones.
 * The rules are in docs/decisions.md "The safe-campus service".
 */
import { NOTICE_TEMPLATE_KIND_OPTIONS } from './notices.js';
import { schoolRef } from './common.js';
import { defineResource, type EnumOption } from './define.js';

/** What a parent holds for one child, as the app shows it ("services I hold"). */
export const SERVICE_STATES = ['inService', 'trial', 'lapsed', 'none', 'free'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

export const StudentService = defineResource({
  name: 'StudentService',
  label: { zh: '平安校园服务', en: 'Safe-campus service' },
  table: 'student_services',
  views: [{ frame: 'safeCampusService' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'studentName',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    studentId: { kind: 'reference', family: 'Student', display: 'name', label: { zh: '学生', en: 'Student' }, required: true, unique: true, filter: 'equals' },
    // The child's name when the service was opened: what the service is called in pickers and logs.
    studentName: { kind: 'text', label: { zh: '学生姓名', en: 'Student name' }, readOnly: true, max: 50, list: false },
    schoolId: schoolRef({ from: 'studentId' }),
    // Moved only by payments, refunds and the Extend action (with its reason), never by a form.
    serviceTo: { kind: 'date', label: { zh: '服务截止', en: 'Paid until' }, readOnly: true, filter: 'range', sortable: true },
    lastReason: { kind: 'text', label: { zh: '最近调整原因', en: 'Last change' }, readOnly: true, max: 500, width: 240 },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true },
  },
  actions: [
    {
      verb: 'Extend',
      button: 'grant',
      label: { zh: '赠送/延长', en: 'Grant / extend' },
      fields: {
        days: {
          kind: 'number',
          integer: true,
          min: -3650,
          max: 3650,
          required: true,
          label: { zh: '天数', en: 'Days' },
          help: { zh: '从今天与当前截止日中较晚者起算；负数缩短', en: 'From the later of today and the current end; negative shortens' },
        },
        reason: { kind: 'textarea', label: { zh: '原因', en: 'Reason' }, required: true, max: 500 },
      },
    },
  ],
});

/**
 * One parent bound to one child: the first `parentCount` active bindings of a child (by `boundAt`)
 * receive its notices, the others wait for a place. Kept when the parent leaves (inactive), so a trial
 * is given once per parent and child. A tab of the parent's drawer: that parent's services.
 */
export const ServiceReceiver = defineResource({
  name: 'ServiceReceiver',
  label: { zh: '服务', en: 'Services' },
  table: 'service_receivers',
  views: [{ frame: 'parentUser' }],
  parent: { family: 'Parent', field: 'parentId' },
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  // Bindings stay as long as their parent and child: the list opens on every binding of the last years.
  log: { timeField: 'boundAt', defaultDays: 3650 },
  titleField: 'parentId',
  fields: {
    boundAt: { kind: 'datetime', label: { zh: '绑定时间', en: 'Bound at' }, readOnly: true, filter: 'range', width: 170 },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 120 },
    studentId: { kind: 'reference', family: 'Student', display: 'name', label: { zh: '学生', en: 'Student' }, required: true, filter: 'equals', width: 120 },
    schoolId: schoolRef({ readOnly: true }),
    active: {
      kind: 'bool',
      label: { zh: '绑定中', en: 'Bound' },
      filter: 'equals',
      trueLabel: { zh: '绑定中', en: 'Bound' },
      falseLabel: { zh: '已解绑', en: 'Left' },
      width: 90,
    },
    receiving: {
      kind: 'bool',
      label: { zh: '接收通知', en: 'Receiving' },
      filter: 'equals',
      trueLabel: { zh: '接收', en: 'Receiving' },
      falseLabel: { zh: '排队', en: 'Waiting' },
      width: 100,
    },
    // The list shows the trial days left instead (trialDays); the record shows the date.
    trialTo: { kind: 'date', label: { zh: '试用截止', en: 'Trial until' }, readOnly: true, list: false, exported: true },
    // The child's service end, read with the binding (StudentService): what the parent holds.
    serviceTo: { kind: 'date', label: { zh: '服务截止', en: 'Paid until' }, computed: true, readOnly: true },
    // The charge item of the child's latest payment (none: granted by hand or only in trial).
    chargeItem: { kind: 'text', label: { zh: '收费项目', en: 'Charge item' }, computed: true, readOnly: true, max: 100, width: 140 },
    // Trial days left today (business date), counting the last; 0 once over, empty without a trial.
    trialDays: { kind: 'number', integer: true, label: { zh: '试用剩余天数', en: 'Trial days left' }, computed: true, readOnly: true, width: 120 },
  },
  uniqueIndexes: [['parentId', 'studentId']],
  indexes: [['studentId', 'active', 'boundAt']],
});

/** The inbox: one notice per receiving parent and recognition (at most one per child, kind and minute); a tab of the parent's drawer. */
export const ParentNotice = defineResource({
  name: 'ParentNotice',
  label: { zh: '通知回执', en: 'Notice receipts' },
  table: 'parent_notices',
  views: [{ frame: 'parentUser' }],
  parent: { family: 'Parent', field: 'parentId' },
  scope: { via: 'school', field: 'schoolId' },
  mode: 'log',
  log: { timeField: 'createdAt', defaultDays: 7, retentionDays: 400 },
  titleField: 'title',
  fields: {
    createdAt: { kind: 'datetime', label: { zh: '通知时间', en: 'Sent at' }, readOnly: true, filter: 'range', width: 170 },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 120 },
    studentId: { kind: 'reference', family: 'Student', display: 'name', label: { zh: '学生', en: 'Student' }, required: true, filter: 'equals', width: 120 },
    schoolId: schoolRef({ readOnly: true }),
    kind: { kind: 'enum', options: NOTICE_TEMPLATE_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, required: true, filter: 'equals', width: 100 },
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, max: 100, width: 160 },
    content: { kind: 'text', label: { zh: '内容', en: 'Content' }, max: 500, width: 320 },
    recognizedAt: { kind: 'datetime', label: { zh: '识别时间', en: 'Recognised at' }, readOnly: true, width: 170 },
    // The minute of the recognition: the dedupe key with parent, child and kind.
    minute: { kind: 'datetime', label: { zh: '分钟', en: 'Minute' }, readOnly: true, list: false, exported: false },
    recognitionId: { kind: 'number', label: { zh: '识别记录', en: 'Recognition' }, readOnly: true, list: false },
    snapshot: { kind: 'image', label: { zh: '抓拍', en: 'Snapshot' }, width: 90, exported: false },
    readAt: { kind: 'datetime', label: { zh: '已读时间', en: 'Read at' }, readOnly: true, width: 170 },
  },
  uniqueIndexes: [['parentId', 'studentId', 'kind', 'minute']],
  indexes: [['parentId', 'id']],
});

export const PUSH_STATE_OPTIONS = [
  { value: 'pending', zh: '待推送', en: 'Pending', color: 'blue' },
  { value: 'sent', zh: '已推送', en: 'Sent', color: 'green' },
  { value: 'outbox', zh: '已写入发件箱', en: 'In outbox', color: 'cyan' },
  { value: 'givenUp', zh: '已放弃', en: 'Given up', color: 'red' },
] as const satisfies readonly EnumOption[];
export type PushState = (typeof PUSH_STATE_OPTIONS)[number]['value'];

export const PUSH_PLATFORM_OPTIONS = [
  { value: 'ios', zh: 'iOS', en: 'iOS' },
  { value: 'android', zh: '安卓', en: 'Android' },
] as const satisfies readonly EnumOption[];
export type PushPlatform = (typeof PUSH_PLATFORM_OPTIONS)[number]['value'];

/** Attempts of one push before it is given up, and the back-off between them (doubled each time, capped). */
export const PUSH_MAX_ATTEMPTS = 6;
export const PUSH_BASE_DELAY_MS = 10_000;
export const PUSH_MAX_DELAY_MS = 30 * 60_000;

/** The push outbox: one delivery per notice and device, with its attempts (the inbox notice stands whatever happens here). */
export const PushDelivery = defineResource({
  name: 'PushDelivery',
  label: { zh: '推送发件箱', en: 'Push outbox' },
  table: 'push_deliveries',
  views: [{ frame: 'pushOutbox' }],
  scope: { via: 'global' },
  userTypes: ['company'],
  mode: 'log',
  log: { timeField: 'createdAt', defaultDays: 1, retentionDays: 30 },
  titleField: 'title',
  fields: {
    createdAt: { kind: 'datetime', label: { zh: '时间', en: 'Time' }, readOnly: true, filter: 'range', width: 170 },
    parentId: { kind: 'reference', family: 'Parent', display: 'name', label: { zh: '家长', en: 'Parent' }, required: true, filter: 'equals', width: 120 },
    noticeId: { kind: 'number', label: { zh: '通知编号', en: 'Notice' }, required: true, filter: 'equals', width: 100 },
    platform: { kind: 'enum', options: PUSH_PLATFORM_OPTIONS, label: { zh: '平台', en: 'Platform' }, required: true, filter: 'equals', width: 90 },
    token: { kind: 'text', label: { zh: '设备标识', en: 'Device token' }, max: 200, width: 200 },
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, max: 100, width: 160 },
    content: { kind: 'text', label: { zh: '内容', en: 'Content' }, max: 500, width: 280 },
    state: { kind: 'enum', options: PUSH_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, required: true, filter: 'equals', width: 110 },
    provider: { kind: 'text', label: { zh: '推送通道', en: 'Provider' }, max: 20, width: 100 },
    attempts: { kind: 'number', label: { zh: '尝试次数', en: 'Attempts' }, width: 90 },
    nextAttemptAt: { kind: 'datetime', label: { zh: '下次尝试', en: 'Next attempt' }, width: 170 },
    lastError: { kind: 'text', label: { zh: '最近错误', en: 'Last error' }, max: 500, width: 240 },
    deliveredAt: { kind: 'datetime', label: { zh: '送达时间', en: 'Delivered at' }, width: 170 },
  },
  indexes: [['state', 'nextAttemptAt']],
});

/** Notice kinds a gate's recognition makes: the terminal's direction decides (in = arrival, out = departure). */
export const NOTICE_KIND_ARRIVAL = 1;
export const NOTICE_KIND_DEPARTURE = 2;

/** The texts of a recognition's notice when neither the school nor the default has an enabled template of its kind. */
export const FALLBACK_NOTICE_TEXTS: Readonly<Record<number, { title: string; content: string }>> = {
  [NOTICE_KIND_ARRIVAL]: { title: '入园通知', content: '{studentName}已于{time}入园' },
  [NOTICE_KIND_DEPARTURE]: { title: '离园通知', content: '{studentName}已于{time}离园' },
};
