import { defineResource } from './define.js';
import { childScope, faceImageField, GENDER_OPTIONS, RELATION_OPTIONS, schoolRef, enabledField } from './common.js';
import { School } from './school.js';

export const GRADE_OPTIONS = [
  { value: 1, zh: '托班', en: 'Nursery' },
  { value: 2, zh: '小班', en: 'Junior class' },
  { value: 3, zh: '中班', en: 'Middle class' },
  { value: 4, zh: '大班', en: 'Senior class' },
  { value: 11, zh: '一年级', en: 'Grade 1' },
  { value: 12, zh: '二年级', en: 'Grade 2' },
  { value: 13, zh: '三年级', en: 'Grade 3' },
  { value: 14, zh: '四年级', en: 'Grade 4' },
  { value: 15, zh: '五年级', en: 'Grade 5' },
  { value: 16, zh: '六年级', en: 'Grade 6' },
  { value: 21, zh: '初一', en: 'Grade 7' },
  { value: 22, zh: '初二', en: 'Grade 8' },
  { value: 23, zh: '初三', en: 'Grade 9' },
] as const;

/** Grades and classes of a school: a tab of the school's drawer, reachable exactly when its school is. */
export const SchoolClass = defineResource({
  name: 'SchoolClass',
  label: { zh: '班级', en: 'Class' },
  table: 'school_classes',
  views: [{ frame: 'schoolManage' }],
  parent: { family: 'School', field: 'schoolId' },
  scope: childScope(School, 'schoolId'),
  titleField: 'className',
  defaultSort: { field: 'grade', order: 'asc' },
  fields: {
    schoolId: schoolRef(),
    grade: { kind: 'enum', options: GRADE_OPTIONS, label: { zh: '年级', en: 'Grade' }, required: true, filter: 'equals', sortable: true },
    className: { kind: 'text', label: { zh: '班级名称', en: 'Class name' }, required: true, max: 50, filter: 'name' },
    headTeacher: { kind: 'text', label: { zh: '班主任', en: 'Head teacher' }, max: 50 },
  },
});

export const STUDENT_STATE_OPTIONS = [
  { value: 1, zh: '在读', en: 'Enrolled', color: 'green' },
  { value: 2, zh: '离校', en: 'Left', color: 'default' },
  { value: 3, zh: '毕业', en: 'Graduated', color: 'blue' },
] as const;

export const Student = defineResource({
  name: 'Student',
  label: { zh: '学生', en: 'Student' },
  table: 'students',
  views: [{ frame: 'studentInfo' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolId: schoolRef(),
    classId: { kind: 'reference', family: 'SchoolClass', display: 'className', within: 'schoolId', label: { zh: '班级', en: 'Class' }, filter: 'equals' },
    name: { kind: 'text', label: { zh: '姓名', en: 'Name' }, required: true, max: 50, filter: 'name', sortable: true },
    studentNo: { kind: 'text', label: { zh: '学号', en: 'Student no.' }, max: 32, filter: 'equals' },
    cardNo: { kind: 'text', label: { zh: '卡号', en: 'Card no.' }, max: 32, filter: 'equals' },
    gender: { kind: 'enum', options: GENDER_OPTIONS, label: { zh: '性别', en: 'Gender' }, filter: 'equals' },
    birthDate: { kind: 'date', label: { zh: '出生日期', en: 'Birth date' } },
    faceImage: faceImageField(),
    state: { kind: 'enum', options: STUDENT_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, filter: 'equals', defaultValue: 1 },
  },
  indexes: [['schoolId', 'name'], ['schoolId', 'studentNo'], ['cardNo'], ['studentNo']],
  import: {
    examples: [
      { name: '王雨桐', studentNo: '20240101', cardNo: '0012345678', gender: 2, birthDate: '2017-05-12', state: 1 },
      { name: '李浩然', studentNo: '20240102', gender: 1, birthDate: '2017-09-03', state: 1 },
    ],
  },
});

export const Parent = defineResource({
  name: 'Parent',
  label: { zh: '家长', en: 'Parent' },
  table: 'parents',
  views: [{ frame: 'parentUser' }],
  // A parent carries the school of the child it was registered for, so scope stays one indexed column.
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    phoneNum: { kind: 'phone', phoneKind: 'mobile', label: { zh: '手机号', en: 'Mobile' }, required: true, unique: true, filter: 'digits' },
    name: { kind: 'text', label: { zh: '姓名', en: 'Name' }, required: true, max: 50, filter: 'name', sortable: true },
    schoolId: schoolRef(),
    // A parent may have several children at the school; the relation is the parent's (father, mother, ...).
    studentIds: {
      kind: 'reference',
      family: 'Student',
      display: 'name',
      multiple: true,
      link: { table: 'parent_students', owner: 'parentId', target: 'studentId' },
      within: 'schoolId',
      label: { zh: '关联学生', en: 'Linked students' },
      filter: 'equals',
      width: 200,
    },
    relation: { kind: 'enum', options: RELATION_OPTIONS, label: { zh: '关系', en: 'Relation' }, filter: 'equals' },
    password: { kind: 'password', label: { zh: 'App密码', en: 'App password' } },
    enabled: enabledField(),
    lastLoginAt: { kind: 'datetime', label: { zh: '最近登录', en: 'Last login' }, readOnly: true, sortable: true },
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
  indexes: [['schoolId', 'name']],
  import: {
    examples: [
      { phoneNum: '13800000001', name: '王建国', relation: 1, enabled: true },
      { phoneNum: '13800000002', name: '刘芳', relation: 2, enabled: true },
    ],
  },
});

export const Teacher = defineResource({
  name: 'Teacher',
  label: { zh: '教师', en: 'Teacher' },
  table: 'teachers',
  views: [{ frame: 'teacherInfo' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolId: schoolRef(),
    name: { kind: 'text', label: { zh: '姓名', en: 'Name' }, required: true, max: 50, filter: 'name', sortable: true },
    phoneNum: { kind: 'phone', phoneKind: 'mobile', label: { zh: '手机号', en: 'Mobile' }, required: true, filter: 'digits' },
    cardNo: { kind: 'text', label: { zh: '卡号', en: 'Card no.' }, max: 32, filter: 'equals' },
    classId: { kind: 'reference', family: 'SchoolClass', display: 'className', within: 'schoolId', label: { zh: '负责班级', en: 'Class' }, filter: 'equals' },
    faceImage: faceImageField(),
    enabled: enabledField(),
  },
  indexes: [['schoolId', 'name'], ['cardNo']],
  import: {
    examples: [
      { name: '张老师', phoneNum: '13900000001', cardNo: '0087654321', enabled: true },
      { name: '陈老师', phoneNum: '13900000002', enabled: true },
    ],
  },
});

export const PickUpPerson = defineResource({
  name: 'PickUpPerson',
  label: { zh: '接送人', en: 'Pick-up person' },
  table: 'pick_up_persons',
  views: [{ frame: 'pickupInfo' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    studentId: { kind: 'reference', family: 'Student', display: 'name', label: { zh: '学生', en: 'Student' }, required: true, filter: 'equals' },
    // Follows from the student; the server sets it so scope is one indexed column.
    schoolId: schoolRef({ from: 'studentId' }),
    name: { kind: 'text', label: { zh: '姓名', en: 'Name' }, required: true, max: 50, filter: 'name', sortable: true },
    relation: { kind: 'enum', options: RELATION_OPTIONS, label: { zh: '关系', en: 'Relation' }, required: true, filter: 'equals' },
    phoneNum: { kind: 'phone', phoneKind: 'mobile', label: { zh: '手机号', en: 'Mobile' }, required: true, filter: 'digits' },
    faceImage: faceImageField(),
    validUntil: { kind: 'date', label: { zh: '有效期至', en: 'Valid until' }, sortable: true, filter: 'range' },
  },
  indexes: [['schoolId', 'name'], ['studentId']],
  import: {
    examples: [
      { name: '王建国', relation: 1, phoneNum: '13800000001', validUntil: '2026-07-31' },
      { name: '赵阿姨', relation: 9, phoneNum: '13700000003' },
    ],
  },
});
