/**
 * Notices (appInform) and the templates of the app's automatic notices (appInformTemplate). A notice
 * may be flagged for the console's home page, which lists the flagged notices of the day.
 */
import { defineResource, type PlaceholderDef } from './define.js';
import { periodFields, schoolRef } from './common.js';

export const NOTICE_AUDIENCE_OPTIONS = [
  { value: 1, zh: '全部', en: 'Everyone', color: 'blue' },
  { value: 2, zh: '代理商', en: 'Agents', color: 'purple' },
  { value: 3, zh: '学校', en: 'Schools', color: 'green' },
  { value: 4, zh: '家长', en: 'Parents', color: 'gold' },
] as const;

export const SysNotice = defineResource({
  name: 'SysNotice',
  label: { zh: '通知公告', en: 'Notice' },
  table: 'sys_notices',
  views: [{ frame: 'appInform' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, required: true, max: 100, filter: 'name', sortable: true },
    audience: { kind: 'enum', options: NOTICE_AUDIENCE_OPTIONS, label: { zh: '对象', en: 'Audience' }, required: true, defaultValue: 1, filter: 'equals', width: 100 },
    content: { kind: 'textarea', label: { zh: '内容', en: 'Content' }, required: true, max: 5000, list: false, exported: true },
    ...periodFields({ sortable: 'start' }),
    showOnHome: {
      kind: 'bool',
      label: { zh: '首页展示', en: 'On home page' },
      defaultValue: false,
      filter: 'equals',
      trueLabel: { zh: '首页展示', en: 'On home page' },
      falseLabel: { zh: '未展示', en: 'Not shown' },
      width: 110,
    },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true },
  },
  // The `show` button puts a notice on the home page and takes it off again.
  toggles: [{ field: 'showOnHome', button: 'show' }],
});

/** Flagged notices the home page lists at most. */
export const HOME_NOTICES_LIMIT = 10;

/** The values a notice template may name, with what the preview fills in. */
export const NOTICE_TEMPLATE_PLACEHOLDERS: readonly PlaceholderDef[] = [
  { name: 'studentName', label: { zh: '学生姓名', en: 'Student name' }, sample: '王小明' },
  { name: 'parentName', label: { zh: '家长姓名', en: 'Parent name' }, sample: '王女士' },
  { name: 'schoolName', label: { zh: '学校名称', en: 'School name' }, sample: '阳光幼儿园' },
  { name: 'className', label: { zh: '班级', en: 'Class' }, sample: '大一班' },
  { name: 'time', label: { zh: '时间', en: 'Time' }, sample: '2026-11-25 08:05' },
  { name: 'temperature', label: { zh: '体温', en: 'Temperature' }, sample: '36.5' },
  { name: 'amount', label: { zh: '金额', en: 'Amount' }, sample: '99.00' },
  { name: 'pickUpPerson', label: { zh: '接送人', en: 'Pick-up person' }, sample: '王爷爷' },
];

export const NOTICE_TEMPLATE_KIND_OPTIONS = [
  { value: 1, zh: '入园通知', en: 'Arrival', color: 'green' },
  { value: 2, zh: '离园通知', en: 'Departure', color: 'blue' },
  { value: 3, zh: '体温异常', en: 'Fever', color: 'red' },
  { value: 4, zh: '缴费通知', en: 'Payment', color: 'gold' },
  { value: 5, zh: '接送通知', en: 'Pick-up', color: 'purple' },
] as const;

export const AppNoticeTemplate = defineResource({
  name: 'AppNoticeTemplate',
  label: { zh: '通知模板', en: 'Notice template' },
  table: 'app_notice_templates',
  views: [{ frame: 'appInformTemplate' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '模板名称', en: 'Name' }, required: true, max: 50, unique: true, filter: 'name', sortable: true },
    kind: { kind: 'enum', options: NOTICE_TEMPLATE_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, required: true, filter: 'equals', width: 110 },
    // A school's own template of a kind wins over the default (no school) of that kind.
    schoolId: schoolRef({ required: false, help: { zh: '留空为默认模板，适用于没有自己模板的学校', en: 'Empty: the default, for schools without their own' } }),
    title: {
      kind: 'textarea',
      label: { zh: '通知标题', en: 'Title' },
      required: true,
      max: 100,
      placeholders: NOTICE_TEMPLATE_PLACEHOLDERS,
    },
    content: {
      kind: 'textarea',
      label: { zh: '通知内容', en: 'Content' },
      required: true,
      max: 500,
      placeholders: NOTICE_TEMPLATE_PLACEHOLDERS,
    },
    enabled: { kind: 'bool', label: { zh: '启用', en: 'Enabled' }, filter: 'equals', defaultValue: true, trueLabel: { zh: '启用', en: 'Enabled' }, falseLabel: { zh: '停用', en: 'Disabled' } },
    updatedAt: { kind: 'datetime', label: { zh: '更新时间', en: 'Updated' }, readOnly: true },
  },
});
