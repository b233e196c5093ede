/**
 * What the parents' app reads: articles (appContentManage, rich text), help articles (userHelp) and
 * common questions (usualProblem). Each has a category and an order the app lists them by.
 */
import { defineResource } from './define.js';

export const APP_CONTENT_CATEGORY_OPTIONS = [
  { value: 1, zh: '育儿知识', en: 'Parenting', color: 'green' },
  { value: 2, zh: '校园动态', en: 'Campus news', color: 'blue' },
  { value: 3, zh: '安全教育', en: 'Safety', color: 'red' },
  { value: 4, zh: '活动推荐', en: 'Events', color: 'gold' },
] as const;

const publishedField = () =>
  ({
    kind: 'bool',
    label: { zh: '发布状态', en: 'Published' },
    filter: 'equals',
    defaultValue: false,
    trueLabel: { zh: '已发布', en: 'Published' },
    falseLabel: { zh: '草稿', en: 'Draft' },
    width: 100,
  }) as const;

const sortField = () => ({ kind: 'number', label: { zh: '排序', en: 'Order' }, min: 0, max: 9999, defaultValue: 0, sortable: true, width: 80 }) as const;

export const AppContent = defineResource({
  name: 'AppContent',
  label: { zh: 'App内容', en: 'App content' },
  table: 'app_contents',
  views: [{ frame: 'appContentManage' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    cover: { kind: 'image', label: { zh: '封面', en: 'Cover' }, width: 70 },
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, required: true, max: 100, filter: 'name', sortable: true },
    category: { kind: 'enum', options: APP_CONTENT_CATEGORY_OPTIONS, label: { zh: '分类', en: 'Category' }, required: true, filter: 'equals', width: 110 },
    summary: { kind: 'text', label: { zh: '摘要', en: 'Summary' }, max: 200, list: false },
    body: { kind: 'textarea', rich: true, label: { zh: '正文', en: 'Body' }, required: true, max: 50_000, list: false, exported: false },
    published: publishedField(),
    sort: sortField(),
    updatedAt: { kind: 'datetime', label: { zh: '更新时间', en: 'Updated' }, readOnly: true, sortable: true },
  },
  toggles: [{ field: 'published', button: 'update' }],
});

export const HELP_CATEGORY_OPTIONS = [
  { value: 1, zh: '账号与登录', en: 'Account' },
  { value: 2, zh: '考勤与接送', en: 'Attendance' },
  { value: 3, zh: '缴费与退款', en: 'Payments' },
  { value: 4, zh: '设备使用', en: 'Devices' },
  { value: 9, zh: '其他', en: 'Other' },
] as const;

export const UserHelp = defineResource({
  name: 'UserHelp',
  label: { zh: '用户帮助', en: 'Help article' },
  table: 'user_helps',
  views: [{ frame: 'userHelp' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'sort', order: 'asc' },
  fields: {
    category: { kind: 'enum', options: HELP_CATEGORY_OPTIONS, label: { zh: '分类', en: 'Category' }, required: true, filter: 'equals', width: 120 },
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, required: true, max: 100, filter: 'name' },
    content: { kind: 'textarea', rich: true, label: { zh: '内容', en: 'Content' }, required: true, max: 20_000, list: false, exported: false },
    sort: sortField(),
    published: publishedField(),
    updatedAt: { kind: 'datetime', label: { zh: '更新时间', en: 'Updated' }, readOnly: true },
  },
});

export const Question = defineResource({
  name: 'Question',
  label: { zh: '常见问题', en: 'Common question' },
  table: 'common_questions',
  views: [{ frame: 'usualProblem' }],
  scope: { via: 'global' },
  titleField: 'question',
  defaultSort: { field: 'sort', order: 'asc' },
  fields: {
    category: { kind: 'enum', options: HELP_CATEGORY_OPTIONS, label: { zh: '分类', en: 'Category' }, required: true, filter: 'equals', width: 120 },
    question: { kind: 'text', label: { zh: '问题', en: 'Question' }, required: true, max: 200, filter: 'name' },
    answer: { kind: 'textarea', label: { zh: '解答', en: 'Answer' }, required: true, max: 2000 },
    sort: sortField(),
    published: publishedField(),
  },
});
