/** Education content: the directory tree courseware is filed under (PRODUCT "Education"), and the courseware. */
import { enabledField, schoolRef } from './common.js';
import { defineResource } from './define.js';

/** Directories of the education content, a tree ordered among siblings; moved by drag on the page. */
export const EducationDirectory = defineResource({
  name: 'EducationDirectory',
  label: { zh: '目录', en: 'Directory' },
  table: 'education_directories',
  views: [{ frame: 'directoryManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'sortOrder', order: 'asc' },
  tree: { parentField: 'parentId', orderField: 'sortOrder' },
  fields: {
    name: { kind: 'text', label: { zh: '目录名称', en: 'Name' }, required: true, max: 50, filter: 'name', width: 240 },
    parentId: {
      kind: 'reference',
      family: 'EducationDirectory',
      display: 'name',
      label: { zh: '上级目录', en: 'Parent directory' },
      filter: 'equals',
      help: { zh: '留空为顶级目录', en: 'Empty = a top-level directory' },
    },
    // Kept by the engine: Add puts a directory last among its siblings, Move renumbers them.
    sortOrder: { kind: 'number', label: { zh: '排序', en: 'Order' }, readOnly: true, width: 80 },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
    enabled: enabledField(),
  },
  indexes: [['parentId', 'sortOrder']],
});

export const COURSEWARE_VIDEO = 1;
export const COURSEWARE_DOCUMENT = 2;

export const COURSEWARE_KIND_OPTIONS = [
  { value: COURSEWARE_VIDEO, zh: '视频', en: 'Video', color: 'blue' },
  { value: COURSEWARE_DOCUMENT, zh: '文档', en: 'Document', color: 'green' },
] as const;

/** The longest courseware video stored: a lesson recording, not a day of footage. */
export const COURSEWARE_MAX_SECONDS = 4 * 60 * 60;

/**
 * Courseware (coursewareManage): a video or a document filed under a directory of directoryManage and
 * given to one school, so an agent sees only its schools' courseware. Files come through the checked
 * upload calls; the server reads a video's duration from the file itself, and its poster frame is an
 * image the browser grabbed from the chosen file (docs/decisions.md "A courseware video's poster").
 */
export const EducationCourseware = defineResource({
  name: 'EducationCourseware',
  label: { zh: '课件', en: 'Courseware' },
  table: 'education_coursewares',
  views: [{ frame: 'coursewareManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    title: { kind: 'text', label: { zh: '课件名称', en: 'Title' }, required: true, max: 100, filter: 'name', sortable: true, width: 200 },
    directoryId: {
      kind: 'reference',
      family: 'EducationDirectory',
      display: 'name',
      label: { zh: '目录', en: 'Directory' },
      required: true,
      width: 140,
    },
    // The page's directory filter: courseware filed in the chosen directory or anywhere below it.
    inDirectory: {
      kind: 'reference',
      family: 'EducationDirectory',
      display: 'name',
      computed: true,
      readOnly: true,
      list: false,
      exported: false,
      label: { zh: '目录', en: 'Directory' },
      help: { zh: '含其下级目录中的课件', en: 'Includes courseware in its subdirectories' },
      filter: 'equals',
    },
    schoolId: schoolRef({ width: 160 }),
    kind: { kind: 'enum', options: COURSEWARE_KIND_OPTIONS, label: { zh: '类型', en: 'Kind' }, required: true, defaultValue: COURSEWARE_VIDEO, filter: 'equals', width: 90 },
    posterImage: {
      kind: 'image',
      label: { zh: '封面', en: 'Poster' },
      help: { zh: '选择视频后由浏览器从视频中截取一帧', en: 'Taken by the browser from a frame of the chosen video' },
      width: 110,
    },
    // Read by the server from the video's movie header when the row is written, never typed (videoFile's `length`).
    durationSeconds: { kind: 'number', unit: 'seconds', label: { zh: '时长', en: 'Length' }, readOnly: true, sortable: true, width: 100 },
    videoFile: {
      kind: 'file',
      files: 'video',
      poster: 'posterImage',
      length: {
        into: 'durationSeconds',
        max: COURSEWARE_MAX_SECONDS,
        messages: { notUploaded: { key: 'courseware.notUploaded', params: { noun: { zh: '视频', en: 'video' } } }, unreadable: { key: 'courseware.unreadable' }, tooLong: { key: 'courseware.tooLong', params: { hours: COURSEWARE_MAX_SECONDS / 3600 } } },
      },
      label: { zh: '视频文件', en: 'Video file' },
      requiredWhen: { field: 'kind', in: [COURSEWARE_VIDEO] },
      width: 150,
    },
    documentFile: {
      kind: 'file',
      files: 'document',
      label: { zh: '文档文件', en: 'Document file' },
      requiredWhen: { field: 'kind', in: [COURSEWARE_DOCUMENT] },
      width: 150,
    },
    remark: { kind: 'textarea', label: { zh: '简介', en: 'Description' }, max: 500, list: false },
    enabled: enabledField(),
  },
  toggles: [{ field: 'enabled', button: 'update' }],
  indexes: [['directoryId', 'id']],
});
