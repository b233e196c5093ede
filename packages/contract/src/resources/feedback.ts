/**
 * What parents tell the company through the app (userBack) and about live classes (liveFeedBack).
 * Both are workflows: the reply is a transition, so who answered and when is in the row's history,
 * and the menu badges count the rows still waiting.
 */
import { schoolRef } from './common.js';
import { defineResource } from './define.js';

export const FEEDBACK_STATE_OPTIONS = [
  { value: 1, zh: '待回复', en: 'Open', color: 'orange' },
  { value: 2, zh: '已回复', en: 'Answered', color: 'blue' },
  { value: 3, zh: '已关闭', en: 'Closed', color: 'default' },
] as const;

/** Feedback nobody has answered yet: the `feedbackUnanswered` badge counts it. */
export const FEEDBACK_UNANSWERED_STATE = 1;

export const FEEDBACK_CATEGORY_OPTIONS = [
  { value: 1, zh: '功能建议', en: 'Suggestion' },
  { value: 2, zh: '问题反馈', en: 'Problem' },
  { value: 3, zh: '投诉', en: 'Complaint', color: 'red' },
  { value: 9, zh: '其他', en: 'Other' },
] as const;

const replyField = { kind: 'textarea', label: { zh: '回复内容', en: 'Reply' }, required: true, max: 1000 } as const;

export const UserFeedback = defineResource({
  name: 'UserFeedback',
  label: { zh: '用户反馈', en: 'User feedback' },
  table: 'user_feedbacks',
  views: [{ frame: 'userBack' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'content',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolId: schoolRef(),
    parentName: { kind: 'text', label: { zh: '家长', en: 'Parent' }, required: true, max: 50, filter: 'name', width: 110 },
    phoneNum: { kind: 'phone', phoneKind: 'mobile', label: { zh: '手机号', en: 'Phone' }, required: true, filter: 'equals', width: 130 },
    category: { kind: 'enum', options: FEEDBACK_CATEGORY_OPTIONS, label: { zh: '类型', en: 'Category' }, required: true, defaultValue: 2, filter: 'equals', width: 100 },
    content: { kind: 'textarea', label: { zh: '反馈内容', en: 'Feedback' }, required: true, max: 1000, filter: 'code' },
    photo1: { kind: 'image', label: { zh: '图片1', en: 'Image 1' }, width: 70 },
    photo2: { kind: 'image', label: { zh: '图片2', en: 'Image 2' }, list: false },
    photo3: { kind: 'image', label: { zh: '图片3', en: 'Image 3' }, list: false },
    state: { kind: 'enum', options: FEEDBACK_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, filter: 'equals', width: 90 },
    // Written by the Reply transition: the parent's app shows it under the feedback.
    reply: { kind: 'textarea', label: { zh: '回复内容', en: 'Reply' }, max: 1000, readOnly: true, exported: true },
    repliedAt: { kind: 'datetime', label: { zh: '回复时间', en: 'Replied at' }, readOnly: true, list: false, exported: true },
    createdAt: { kind: 'datetime', label: { zh: '反馈时间', en: 'Sent at' }, readOnly: true, sortable: true, filter: 'range' },
  },
  workflow: {
    field: 'state',
    initial: 1,
    editableIn: [1],
    transitions: [
      // Answering again corrects the reply the parent sees; the history keeps each one.
      { verb: 'Reply', from: [1, 2], to: 2, button: 'state', label: { zh: '回复', en: 'Reply' }, fields: { reply: replyField }, stamps: { at: 'repliedAt' } },
      {
        verb: 'Close',
        from: [1, 2],
        to: 3,
        button: 'state',
        label: { zh: '关闭', en: 'Close' },
        fields: { remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500 } },
        danger: true,
        confirm: { zh: '关闭后家长不能再收到回复，确定关闭？', en: 'The parent gets no further reply once closed. Close it?' },
      },
      { verb: 'Reopen', from: [3], to: 1, button: 'state', label: { zh: '重新打开', en: 'Reopen' } },
    ],
  },
});

export const LIVE_FEEDBACK_STATE_OPTIONS = [
  { value: 1, zh: '待处理', en: 'Pending', color: 'orange' },
  { value: 2, zh: '已处理', en: 'Handled', color: 'green' },
  { value: 3, zh: '已忽略', en: 'Ignored', color: 'default' },
] as const;

/** Live-class feedback still to be handled: the `liveFeedbackPending` badge counts it. */
export const LIVE_FEEDBACK_PENDING_STATE = 1;

export const LIVE_FEEDBACK_KIND_OPTIONS = [
  { value: 1, zh: '画面卡顿', en: 'Stuttering video' },
  { value: 2, zh: '无法观看', en: 'Cannot watch' },
  { value: 3, zh: '内容问题', en: 'Content' },
  { value: 9, zh: '其他', en: 'Other' },
] as const;

export const LiveFeedback = defineResource({
  name: 'LiveFeedback',
  label: { zh: '直播课反馈', en: 'Live-class feedback' },
  table: 'live_feedbacks',
  views: [{ frame: 'liveFeedBack' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'content',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolId: schoolRef(),
    className: { kind: 'text', label: { zh: '班级', en: 'Class' }, max: 50, filter: 'name', width: 110 },
    parentName: { kind: 'text', label: { zh: '家长', en: 'Parent' }, required: true, max: 50, filter: 'name', width: 110 },
    phoneNum: { kind: 'phone', phoneKind: 'mobile', label: { zh: '手机号', en: 'Phone' }, required: true, filter: 'equals', width: 130 },
    kind: { kind: 'enum', options: LIVE_FEEDBACK_KIND_OPTIONS, label: { zh: '问题类型', en: 'Kind' }, required: true, defaultValue: 1, filter: 'equals', width: 110 },
    content: { kind: 'textarea', label: { zh: '反馈内容', en: 'Feedback' }, required: true, max: 1000 },
    state: { kind: 'enum', options: LIVE_FEEDBACK_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, filter: 'equals', width: 90 },
    result: { kind: 'textarea', label: { zh: '处理结果', en: 'Result' }, max: 1000, readOnly: true, exported: true },
    createdAt: { kind: 'datetime', label: { zh: '反馈时间', en: 'Sent at' }, readOnly: true, sortable: true, filter: 'range' },
  },
  workflow: {
    field: 'state',
    initial: 1,
    editableIn: [1],
    transitions: [
      {
        verb: 'Handle',
        from: [1],
        to: 2,
        button: 'state',
        label: { zh: '处理', en: 'Handle' },
        fields: { result: { kind: 'textarea', label: { zh: '处理结果', en: 'Result' }, required: true, max: 1000 } },
      },
      { verb: 'Ignore', from: [1], to: 3, button: 'state', label: { zh: '忽略', en: 'Ignore' }, danger: true, fields: { remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500 } } },
      { verb: 'Reopen', from: [2, 3], to: 1, button: 'state', label: { zh: '重新打开', en: 'Reopen' } },
    ],
  },
});
