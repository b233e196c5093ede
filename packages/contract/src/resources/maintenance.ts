/** Maintenance tickets of the equipmentMaintenance page: a device's fault, from open to done or closed. */
import { schoolRef } from './common.js';
import { defineResource, type FieldDef } from './define.js';

export const TICKET_PRIORITY_OPTIONS = [
  { value: 'low', zh: '低', en: 'Low', color: 'default' },
  { value: 'normal', zh: '普通', en: 'Normal', color: 'blue' },
  { value: 'urgent', zh: '紧急', en: 'Urgent', color: 'red' },
] as const;

export const TICKET_STATE_OPTIONS = [
  { value: 1, zh: '待处理', en: 'Open', color: 'orange' },
  { value: 2, zh: '已派单', en: 'Assigned', color: 'blue' },
  { value: 3, zh: '处理中', en: 'In progress', color: 'processing' },
  { value: 4, zh: '已完成', en: 'Done', color: 'green' },
  { value: 5, zh: '已关闭', en: 'Closed', color: 'default' },
] as const;

/** Tickets still to be worked on: the `maintenanceOpen` badge counts them. */
export const OPEN_TICKET_STATES = [1, 2, 3] as const;
/** Done and Closed: a ticket reaching either from an open state is closed in the ops daily report. */
export const MAINTENANCE_TICKET_DONE_STATES = [4, 5] as const;

const remarkField = (required = false): FieldDef => ({ kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, required });

const assigneeField = (extra: Partial<FieldDef> = {}): FieldDef =>
  ({
    kind: 'reference',
    family: 'User',
    display: 'name',
    optionsFilter: { type: 'company' },
    label: { zh: '处理人', en: 'Assignee' },
    ...extra,
  }) as FieldDef;

export const MaintenanceTicket = defineResource({
  name: 'MaintenanceTicket',
  label: { zh: '维修工单', en: 'Maintenance ticket' },
  table: 'maintenance_tickets',
  views: [{ frame: 'equipmentMaintenance' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'ticketNo',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    ticketNo: { kind: 'text', label: { zh: '工单号', en: 'Ticket no.' }, numbered: { prefix: 'WX' }, max: 40, unique: true, readOnly: true, filter: 'code', width: 170 },
    // Several states at once: the open tickets (the `maintenanceOpen` badge) are three of them.
    state: { kind: 'enum', options: TICKET_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, filter: 'in' },
    deviceId: { kind: 'reference', family: 'Device', display: 'serialNumber', label: { zh: '设备', en: 'Device' }, required: true, filter: 'equals' },
    schoolId: schoolRef({ from: 'deviceId', refuseEmpty: true }),
    title: { kind: 'text', label: { zh: '故障标题', en: 'Title' }, required: true, max: 100 },
    description: { kind: 'textarea', label: { zh: '故障描述', en: 'Description' }, max: 2000, list: false },
    priority: { kind: 'enum', options: TICKET_PRIORITY_OPTIONS, label: { zh: '优先级', en: 'Priority' }, required: true, defaultValue: 'normal', filter: 'equals' },
    photo: { kind: 'image', label: { zh: '故障照片', en: 'Photo' }, list: false },
    assigneeId: assigneeField({ readOnly: true, filter: 'equals' }),
    resolution: { kind: 'textarea', label: { zh: '处理结果', en: 'Resolution' }, max: 2000, readOnly: true, list: false, exported: true },
    createdAt: { kind: 'datetime', label: { zh: '报修时间', en: 'Reported at' }, readOnly: true, sortable: true, filter: 'range' },
  },
  workflow: {
    field: 'state',
    initial: 1,
    // A finished or closed ticket is a record: its history says what happened, nobody rewrites it.
    editableIn: [1, 2, 3],
    transitions: [
      {
        verb: 'Assign',
        from: [1, 2],
        to: 2,
        button: 'state',
        label: { zh: '派单', en: 'Assign' },
        fields: { assigneeId: assigneeField({ required: true }), remark: remarkField() },
      },
      { verb: 'Start', from: [2], to: 3, button: 'state', label: { zh: '开始处理', en: 'Start' } },
      {
        verb: 'Complete',
        from: [3],
        to: 4,
        button: 'state',
        label: { zh: '完成', en: 'Complete' },
        fields: { resolution: { kind: 'textarea', label: { zh: '处理结果', en: 'Resolution' }, max: 2000, required: true }, remark: remarkField() },
      },
      {
        verb: 'Close',
        from: [1, 2, 3],
        to: 5,
        button: 'state',
        label: { zh: '关闭', en: 'Close' },
        fields: { remark: remarkField(true) },
        danger: true,
        confirm: { zh: '关闭后工单不能再处理，确定关闭吗？', en: 'A closed ticket cannot be worked on again. Close it?' },
      },
    ],
  },
  indexes: [['schoolId', 'state'], ['deviceId']],
});
