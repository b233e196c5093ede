/**
 * What the app and the terminals show: startup pages (appOpen), posters of the app (appImage) and ads
 * of the terminals (terminalAd), the app's function tiles (appFunctionManage) and the texts of the
 * terminal screens (setChatContent).
 */
import { enabledField, periodFields, schoolRef, type FieldOfKind } from './common.js';
import { defineResource, type FieldDef } from './define.js';
import { APP_TYPE_OPTIONS } from './versions.js';


const urlField = (label: FieldDef['label']): FieldDef => ({
  kind: 'text',
  label,
  max: 500,
  pattern: '^(https?://[^\\s]+|/[^\\s]*)$',
  patternMessage: { zh: '以 http(s):// 或 / 开头的地址', en: 'an address starting with http(s):// or /' },
  list: false,
});

export const AppStartupPage = defineResource({
  name: 'AppStartupPage',
  label: { zh: '启动页', en: 'Startup page' },
  table: 'app_startup_pages',
  views: [{ frame: 'appOpen' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    // Required of every write by the family's rule, not the column: the demo's pages ship no uploaded image.
    image: { kind: 'image', label: { zh: '图片', en: 'Image' }, width: 70, requiredOnRow: { message: 'startupPage.imageRequired' } },
    name: { kind: 'text', label: { zh: '名称', en: 'Name' }, required: true, max: 50, filter: 'name' },
    appType: { kind: 'enum', options: APP_TYPE_OPTIONS, label: { zh: '应用', en: 'App' }, required: true, filter: 'equals', width: 100 },
    link: urlField({ zh: '跳转链接', en: 'Link' }),
    displaySeconds: { kind: 'number', label: { zh: '展示秒数', en: 'Seconds shown' }, required: true, min: 1, max: 15, defaultValue: 3, width: 100 },
    ...periodFields({ filter: false }),
    // At most one page in use per app: turning one on turns the app's other off in the same transaction.
    isUsing: {
      kind: 'bool',
      label: { zh: '使用中', en: 'In use' },
      defaultValue: false,
      filter: 'equals',
      trueLabel: { zh: '使用中', en: 'In use' },
      falseLabel: { zh: '未使用', en: 'Not used' },
      width: 100,
    },
  },
  toggles: [{ field: 'isUsing', button: 'enable' }],
});

export const POSTER_KIND_APP = 1;
export const POSTER_KIND_TERMINAL = 2;

export const POSTER_KIND_OPTIONS = [
  { value: POSTER_KIND_APP, zh: 'App海报', en: 'App poster' },
  { value: POSTER_KIND_TERMINAL, zh: '终端广告', en: 'Terminal ad' },
] as const;

export const POSTER_AUDIENCE_ALL = 1;
export const POSTER_AUDIENCE_AREA = 2;
export const POSTER_AUDIENCE_SCHOOLS = 3;

export const POSTER_AUDIENCE_OPTIONS = [
  { value: POSTER_AUDIENCE_ALL, zh: '全部学校', en: 'All schools', color: 'blue' },
  { value: POSTER_AUDIENCE_AREA, zh: '指定地区', en: 'An area', color: 'purple' },
  { value: POSTER_AUDIENCE_SCHOOLS, zh: '指定学校', en: 'Chosen schools', color: 'green' },
] as const;

/**
 * Where a row reaches (a poster's, a questionnaire's): all schools, an area (province, optionally a
 * city) or the schools chosen in its link table, each required by its audience; reached schools are
 * found by audienceReachesSchool.
 */
export const audienceFields = <const Owner extends string>(link: {
  table: string;
  owner: Owner;
}): {
  audience: FieldOfKind<'enum'>;
  province: FieldOfKind<'region'>;
  city: FieldOfKind<'region'>;
  // The link's names stay literal: the server builds the link table's columns from them.
  schoolIds: FieldOfKind<'reference'> & { link: { table: string; owner: Owner; target: 'schoolId' } };
} => ({
  audience: { kind: 'enum', options: POSTER_AUDIENCE_OPTIONS, label: { zh: '投放范围', en: 'Audience' }, required: true, defaultValue: POSTER_AUDIENCE_ALL, filter: 'equals', width: 110 },
  province: { kind: 'region', part: 'province', label: { zh: '省', en: 'Province' }, list: false, requiredWhen: { field: 'audience', in: [POSTER_AUDIENCE_AREA] } },
  city: { kind: 'region', part: 'city', label: { zh: '市', en: 'City' }, list: false },
  schoolIds: {
    kind: 'reference',
    family: 'School',
    display: 'schoolName',
    multiple: true,
    link: { ...link, target: 'schoolId' },
    label: { zh: '指定学校', en: 'Chosen schools' },
    filter: 'equals',
    list: false,
    requiredWhen: { field: 'audience', in: [POSTER_AUDIENCE_SCHOOLS] },
  },
});

export const Poster = defineResource({
  name: 'Poster',
  label: { zh: '海报', en: 'Poster' },
  table: 'posters',
  views: [
    { frame: 'appImage', fixed: { kind: POSTER_KIND_APP } },
    { frame: 'terminalAd', fixed: { kind: POSTER_KIND_TERMINAL } },
  ],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    kind: { kind: 'enum', options: POSTER_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, required: true, filter: 'equals', width: 100 },
    image: { kind: 'image', label: { zh: '图片', en: 'Image' }, width: 70, help: { zh: '图片或视频至少一项', en: 'An image, a video or both' }, requiredOnRow: { orElse: ['video'], message: 'poster.mediaRequired' } },
    video: { kind: 'file', files: 'video', label: { zh: '视频', en: 'Video' }, list: false },
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, required: true, max: 100, filter: 'name' },
    link: urlField({ zh: '跳转链接', en: 'Link' }),
    displaySeconds: { kind: 'number', label: { zh: '展示秒数', en: 'Seconds shown' }, required: true, min: 1, max: 600, defaultValue: 10, width: 100 },
    ...periodFields(),
    ...audienceFields({ table: 'poster_schools', owner: 'posterId' }),
    sort: { kind: 'number', label: { zh: '排序', en: 'Order' }, min: 0, max: 9999, defaultValue: 0, sortable: true, width: 80 },
    enabled: enabledField(),
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
});

/** The app's function tiles, a tree of groups and tiles ordered among siblings; moved by drag. */
export const AppFrame = defineResource({
  name: 'AppFrame',
  label: { zh: 'App功能', en: 'App function' },
  table: 'app_frames',
  views: [{ frame: 'appFunctionManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'sortOrder', order: 'asc' },
  tree: { parentField: 'parentId', orderField: 'sortOrder' },
  fields: {
    name: { kind: 'text', label: { zh: '功能名称', en: 'Name' }, required: true, max: 30, filter: 'name', width: 200 },
    parentId: {
      kind: 'reference',
      family: 'AppFrame',
      display: 'name',
      label: { zh: '所属分组', en: 'Group' },
      filter: 'equals',
      help: { zh: '留空为分组', en: 'Empty = a group' },
    },
    icon: { kind: 'image', label: { zh: '图标', en: 'Icon' }, width: 70 },
    code: { kind: 'text', label: { zh: '功能编码', en: 'Code' }, required: true, max: 40, unique: true, pattern: '^[A-Za-z][A-Za-z0-9_]*$', filter: 'equals', width: 140 },
    link: urlField({ zh: '跳转链接', en: 'Link' }),
    // Kept by the engine: Add puts a tile last among its siblings, Move (drag) renumbers them.
    sortOrder: { kind: 'number', label: { zh: '排序', en: 'Order' }, readOnly: true, width: 80 },
    enabled: enabledField(),
    schoolIds: {
      kind: 'reference',
      family: 'School',
      display: 'schoolName',
      multiple: true,
      link: { table: 'app_frame_schools', owner: 'appFrameId', target: 'schoolId' },
      label: { zh: '可见学校', en: 'Visible to schools' },
      help: { zh: '留空为全部学校可见', en: 'Empty = every school' },
      filter: 'equals',
      list: false,
    },
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
  indexes: [['parentId', 'sortOrder']],
});

export const ScreenChatContent = defineResource({
  name: 'ScreenChatContent',
  label: { zh: '屏显文案', en: 'Screen text' },
  table: 'screen_chat_contents',
  views: [{ frame: 'setChatContent' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'content',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolId: schoolRef(),
    // The terminal by its device: a terminal is one device of the school.
    deviceId: {
      kind: 'reference',
      family: 'Device',
      display: 'serialNumber',
      within: 'schoolId',
      label: { zh: '终端', en: 'Terminal' },
      help: { zh: '留空为本校全部终端', en: 'Empty = every terminal of the school' },
      filter: 'equals',
      width: 160,
    },
    content: { kind: 'text', label: { zh: '文案', en: 'Text' }, required: true, max: 100, filter: 'code' },
    ...periodFields(),
    enabled: enabledField(),
  },
  // setChatContent declares no `enable` button: switching a text is an edit of it.
  toggles: [{ field: 'enabled', button: 'update' }],
});
