/** Labels and options several families share. */
import type { EnumOption, FieldDef, ResourceDef, ScopeDef } from './define.js';

export const ENABLED_OPTIONS: readonly EnumOption[] = [
  { value: 1, zh: '启用', en: 'Enabled', color: 'green' },
  { value: 0, zh: '停用', en: 'Disabled', color: 'default' },
];

export const GENDER_OPTIONS: readonly EnumOption[] = [
  { value: 1, zh: '男', en: 'Male' },
  { value: 2, zh: '女', en: 'Female' },
];

export const RELATION_OPTIONS: readonly EnumOption[] = [
  { value: 1, zh: '父亲', en: 'Father' },
  { value: 2, zh: '母亲', en: 'Mother' },
  { value: 3, zh: '爷爷', en: 'Grandfather (paternal)' },
  { value: 4, zh: '奶奶', en: 'Grandmother (paternal)' },
  { value: 5, zh: '外公', en: 'Grandfather (maternal)' },
  { value: 6, zh: '外婆', en: 'Grandmother (maternal)' },
  { value: 9, zh: '其他', en: 'Other' },
];

/**
 * The school a row belongs to: the data-scope key of most families. `from` names another reference of
 * the row whose school this one follows (`schoolRef({ from: 'studentId' })`): the server sets it from
 * the referenced row and the form does not ask for it; `refuseEmpty`: a referenced row without a school
 * is refused (a device still in stock), since nobody but company staff could reach such a row.
 */
/** A field declaration of one kind: helpers answer it, so row types (RowOf) still know the kind. */
export type FieldOfKind<K extends FieldDef['kind']> = Extract<FieldDef, { kind: K }>;

export const schoolRef = ({ from, refuseEmpty, ...extra }: Partial<FieldDef> & { from?: string; refuseEmpty?: boolean } = {}): FieldOfKind<'reference'> =>
  ({
    kind: 'reference',
    family: 'School',
    display: 'schoolName',
    label: { zh: '学校', en: 'School' },
    required: true,
    filter: 'equals',
    ...(from ? { readOnly: true, required: false, follows: { reference: from, field: 'schoolId', ...(refuseEmpty ? { refuseEmpty } : {}) } } : {}),
    ...extra,
  }) as FieldOfKind<'reference'>;

export const enabledField = (): FieldOfKind<'bool'> => ({
  kind: 'bool',
  label: { zh: '启用', en: 'Enabled' },
  filter: 'equals',
  defaultValue: true,
  trueLabel: { zh: '启用', en: 'Enabled' },
  falseLabel: { zh: '停用', en: 'Disabled' },
});

export const faceImageField = (): FieldOfKind<'image'> => ({
  kind: 'image',
  label: { zh: '人脸照片', en: 'Face photo' },
  list: false,
});

/**
 * The data scope of a child family (`parent: { family, field }`): a child row is reachable exactly when
 * its parent row is. Under a school the child carries the school in `field`; under a school-scoped
 * parent it carries the parent's own school key; under a global parent it is global.
 */
export function childScope(parent: ResourceDef, field: string): ScopeDef {
  if (parent.scope.via === 'self') return { via: 'school', field };
  if (parent.scope.via === 'school') return { via: 'school', field: parent.scope.field };
  if (parent.scope.via === 'global') return { via: 'global' };
  throw new Error(`${parent.name}: a child of an account family has no school scope`);
}

/**
 * The dates a row is in force (a startup page, a poster, a notice, a questionnaire, a holiday): both
 * required, the end not before the start (and at most `maxDays` from it); the list filters by a range
 * over the start unless `filter` is false, and sorts by the start (or both) when asked.
 */
export const periodFields = ({
  filter = true,
  sortable,
  endLabel = 'Until',
  maxDays,
}: { filter?: boolean; sortable?: 'start' | 'both'; endLabel?: string; maxDays?: number } = {}): { startDate: FieldOfKind<'date'>; endDate: FieldOfKind<'date'> } => ({
  startDate: { kind: 'date', label: { zh: '开始日期', en: 'From' }, required: true, ...(filter ? { filter: 'range' } : {}), ...(sortable ? { sortable: true } : {}), width: 120 },
  endDate: { kind: 'date', label: { zh: '结束日期', en: endLabel }, required: true, notBefore: 'startDate', ...(maxDays ? { maxDays } : {}), ...(sortable === 'both' ? { sortable: true } : {}), width: 120 },
});
