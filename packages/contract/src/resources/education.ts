/** Education content: the directory tree courseware is filed under (PRODUCT "Education"). */
import { enabledField } from './common.js';
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
