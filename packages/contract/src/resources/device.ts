import { defineResource } from './define.js';
import { enabledField, schoolRef } from './common.js';

export const DEVICE_TYPE_OPTIONS = [
  { value: 1, zh: '闸机', en: 'Access gate' },
  { value: 2, zh: '考勤机', en: 'Attendance machine' },
  { value: 3, zh: '签到卡读卡器', en: 'Sign-card reader' },
  { value: 4, zh: '摄像机', en: 'Camera' },
  { value: 5, zh: 'NVR', en: 'NVR' },
  { value: 9, zh: '其他', en: 'Other' },
] as const;

export const DeviceClass = defineResource({
  name: 'DeviceClass',
  label: { zh: '单品', en: 'Product model' },
  table: 'device_classes',
  views: [{ frame: 'singleProManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    type: { kind: 'enum', options: DEVICE_TYPE_OPTIONS, label: { zh: '类型', en: 'Type' }, required: true, filter: 'equals' },
    name: { kind: 'text', label: { zh: '名称', en: 'Name' }, required: true, max: 100, filter: 'name', sortable: true },
    code: { kind: 'text', label: { zh: '型号编码', en: 'Model code' }, required: true, max: 40, unique: true, filter: 'equals', pattern: '^[A-Za-z0-9_-]+$' },
    snPrefix: { kind: 'text', label: { zh: '序列号前缀', en: 'Serial prefix' }, required: true, max: 16, pattern: '^[A-Za-z0-9]+$' },
    manufacturerName: { kind: 'text', label: { zh: '厂商', en: 'Manufacturer' }, max: 100, filter: 'name' },
    manufacturerContact: { kind: 'text', label: { zh: '厂商联系人', en: 'Manufacturer contact' }, max: 50, list: false },
    manufacturerPhone: { kind: 'phone', phoneKind: 'serviceLine', label: { zh: '厂商电话', en: 'Manufacturer phone' }, list: false },
    manufacturerAddress: { kind: 'text', label: { zh: '厂商地址', en: 'Manufacturer address' }, max: 200, list: false },
    deviceParams: { kind: 'textarea', label: { zh: '设备参数', en: 'Device parameters' }, max: 4000, list: false },
    licenseEnabled: { kind: 'bool', label: { zh: '需要授权', en: 'Needs licence' }, filter: 'equals', defaultValue: false },
    licensePrice1: { kind: 'money', label: { zh: '授权价格1(1年)', en: 'Licence price 1 (1 yr)' } },
    licensePrice2: { kind: 'money', label: { zh: '授权价格2(2年)', en: 'Licence price 2 (2 yrs)' } },
    licensePrice3: { kind: 'money', label: { zh: '授权价格3(3年)', en: 'Licence price 3 (3 yrs)' } },
    licensePrice4: { kind: 'money', label: { zh: '授权价格4(永久)', en: 'Licence price 4 (perpetual)' } },
    // What an agent pays per device on an order (orderManage copies it into each line).
    unitPrice: { kind: 'money', label: { zh: '单价', en: 'Unit price' } },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
  },
});

export const DEVICE_STATE_OPTIONS = [
  { value: 1, zh: '在库', en: 'In stock', color: 'blue' },
  { value: 2, zh: '已发货', en: 'Delivered', color: 'orange' },
  { value: 3, zh: '已安装', en: 'Installed', color: 'green' },
  { value: 4, zh: '返修', en: 'In repair', color: 'red' },
  { value: 5, zh: '报废', en: 'Scrapped', color: 'default' },
] as const;

export const Device = defineResource({
  name: 'Device',
  label: { zh: '设备', en: 'Device' },
  table: 'devices',
  views: [{ frame: 'deviceInformation' }],
  // Devices still in stock have no school: only company-wide scopes see them.
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'serialNumber',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    serialNumber: {
      kind: 'text',
      label: { zh: '序列号', en: 'Serial number' },
      required: true,
      max: 40,
      unique: true,
      filter: 'code',
      sortable: true,
      pattern: '^[A-Za-z0-9-]+$',
      agrees: { reference: 'deviceClassCode', field: 'snPrefix', is: 'prefix', message: 'device.serialPrefix' },
    },
    deviceClassCode: { kind: 'reference', family: 'DeviceClass', key: 'code', display: 'name', label: { zh: '单品', en: 'Product model' }, required: true, filter: 'equals' },
    imeiOrMac: { kind: 'text', label: { zh: 'IMEI/MAC', en: 'IMEI / MAC' }, max: 40, filter: 'code' },
    mediaServerId: { kind: 'text', label: { zh: '流媒体服务器', en: 'Media server' }, max: 40, list: false },
    schoolId: schoolRef({ required: false }),
    state: { kind: 'enum', options: DEVICE_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, filter: 'equals', defaultValue: 1 },
    licenseKey: { kind: 'text', label: { zh: '授权码', en: 'Licence code' }, max: 64, filter: 'equals' },
    // Its product model needs a licence and it has none yet: the rows the `licenseUnset` badge counts.
    licensePending: {
      kind: 'bool',
      computed: true,
      readOnly: true,
      list: false,
      label: { zh: '授权状态', en: 'Licence' },
      trueLabel: { zh: '待授权', en: 'Awaiting licence' },
      falseLabel: { zh: '已授权或无需授权', en: 'Licensed or not needed' },
      filter: 'equals',
    },
    createdAt: { kind: 'datetime', label: { zh: '入库时间', en: 'Stocked at' }, readOnly: true, sortable: true, filter: 'range' },
    // Set by the database when the state first leaves stock / first reaches installed (warehousingStatistics).
    shippedAt: { kind: 'datetime', label: { zh: '出库时间', en: 'Shipped at' }, readOnly: true },
    installedAt: { kind: 'datetime', label: { zh: '安装时间', en: 'Installed at' }, readOnly: true },
  },
  indexes: [['schoolId', 'state'], ['deviceClassCode']],
  // The serial must start with the product model's prefix: the examples name no model, so they show the shape only.
  import: {
    examples: [
      { serialNumber: 'G3900001', imeiOrMac: '00:1A:2B:3C:4D:5E', state: 1 },
      { serialNumber: 'G3900002', state: 1 },
    ],
  },
});

export const DeviceDelivery = defineResource({
  name: 'DeviceDelivery',
  label: { zh: '发货单', en: 'Delivery' },
  table: 'device_deliveries',
  views: [{ frame: 'equipmentDelivery' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'deliveryNo',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    deliveryNo: { kind: 'text', label: { zh: '发货单号', en: 'Delivery no.' }, required: true, max: 40, unique: true, filter: 'code', sortable: true },
    schoolId: schoolRef(),
    agentId: { kind: 'reference', family: 'User', display: 'name', optionsFilter: { type: 'agent' }, label: { zh: '代理商', en: 'Agent' }, filter: 'equals' },
    deviceCount: { kind: 'number', label: { zh: '设备数量', en: 'Devices' }, required: true, min: 1, max: 10000 },
    warrantyMonths: { kind: 'number', label: { zh: '质保月数', en: 'Warranty (months)' }, required: true, min: 0, max: 120, defaultValue: 12 },
    consigneeName: { kind: 'text', label: { zh: '收货人', en: 'Consignee' }, required: true, max: 50, filter: 'name' },
    consigneePhone: { kind: 'phone', phoneKind: 'serviceLine', label: { zh: '收货电话', en: 'Consignee phone' }, required: true },
    deliveryAddress: { kind: 'text', label: { zh: '收货地址', en: 'Delivery address' }, required: true, max: 200, list: false },
    installationAddress: { kind: 'text', label: { zh: '安装地址', en: 'Installation address' }, max: 200, list: false },
    installationTime: { kind: 'datetime', label: { zh: '安装时间', en: 'Installed at' }, filter: 'range', sortable: true },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
  },
});

export const WARRANTY_STATE_OPTIONS = [
  { value: 1, zh: '保内', en: 'In warranty', color: 'green' },
  { value: 2, zh: '已过保', en: 'Expired', color: 'default' },
] as const;

export const DeviceWarranty = defineResource({
  name: 'DeviceWarranty',
  label: { zh: '质保', en: 'Warranty' },
  table: 'device_warranties',
  views: [{ frame: 'warrantyManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'serialNumber',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    deliveryId: { kind: 'reference', family: 'DeviceDelivery', display: 'deliveryNo', label: { zh: '发货单', en: 'Delivery' }, required: true, filter: 'equals' },
    serialNumber: { kind: 'text', label: { zh: '设备序列号', en: 'Serial number' }, required: true, max: 40, filter: 'code', unique: true },
    // School, start and end follow from the delivery; the server sets them.
    schoolId: schoolRef({ from: 'deliveryId' }),
    startDate: { kind: 'date', label: { zh: '质保开始', en: 'Warranty start' }, readOnly: true, sortable: true },
    endDate: { kind: 'date', label: { zh: '质保结束', en: 'Warranty end' }, readOnly: true, sortable: true, filter: 'range' },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
  },
});

export const LICENSE_USE_OPTIONS = [
  { value: 1, zh: '闸机', en: 'Access gate' },
  { value: 2, zh: '考勤机', en: 'Attendance machine' },
  { value: 3, zh: '签到卡', en: 'Sign card' },
] as const;

export const LICENSE_TYPE_OPTIONS = [
  { value: 1, zh: '正式', en: 'Standard' },
  { value: 2, zh: '试用', en: 'Trial' },
] as const;

export const LICENSE_STATE_OPTIONS = [
  { value: 0, zh: '未使用', en: 'Unused', color: 'blue' },
  { value: 1, zh: '已绑定', en: 'Bound', color: 'green' },
  { value: 2, zh: '已过期', en: 'Expired', color: 'default' },
] as const;

export const License = defineResource({
  name: 'License',
  label: { zh: '授权码', en: 'Licence code' },
  table: 'licenses',
  views: [
    { frame: 'codeManageA', fixed: { useFor: 1 } },
    { frame: 'codeManageB', fixed: { useFor: 2 } },
    { frame: 'signCardManage', fixed: { useFor: 3 } },
  ],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'ticket',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    ticket: { kind: 'text', label: { zh: '授权码', en: 'Code' }, required: true, min: 6, max: 64, unique: true, filter: 'code', pattern: '^[A-Za-z0-9-]+$' },
    useFor: { kind: 'enum', options: LICENSE_USE_OPTIONS, label: { zh: '用途', en: 'Used for' }, required: true, filter: 'equals', form: false },
    type: { kind: 'enum', options: LICENSE_TYPE_OPTIONS, label: { zh: '类型', en: 'Type' }, required: true, filter: 'equals', defaultValue: 1 },
    schoolId: schoolRef(),
    studentName: { kind: 'text', label: { zh: '学生姓名', en: 'Student' }, max: 50, filter: 'name' },
    state: { kind: 'enum', options: LICENSE_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, filter: 'equals', defaultValue: 0 },
    validUntil: { kind: 'date', label: { zh: '有效期至', en: 'Valid until' }, sortable: true },
    enabled: enabledField(),
  },
  toggles: [{ field: 'enabled', button: 'enable' }],
  indexes: [['useFor', 'schoolId']],
});
