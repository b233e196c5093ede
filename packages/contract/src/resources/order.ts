/** Device orders (orderManage): an agent orders product models for a school; shipping creates the delivery. */
import { schoolRef } from './common.js';
import { defineResource } from './define.js';

export const ORDER_STATE_OPTIONS = [
  { value: 1, zh: '已提交', en: 'Submitted', color: 'blue' },
  { value: 2, zh: '已确认', en: 'Confirmed', color: 'cyan' },
  { value: 3, zh: '已发货', en: 'Shipped', color: 'orange' },
  { value: 4, zh: '已完成', en: 'Completed', color: 'green' },
  { value: 5, zh: '已取消', en: 'Cancelled', color: 'default' },
] as const;


export const Order = defineResource({
  name: 'Order',
  label: { zh: '设备订单', en: 'Device order' },
  table: 'device_orders',
  views: [{ frame: 'orderManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'orderNo',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    orderNo: { kind: 'text', label: { zh: '订单号', en: 'Order no.' }, numbered: { prefix: 'DD' }, readOnly: true, unique: true, max: 40, filter: 'code', sortable: true },
    state: { kind: 'enum', options: ORDER_STATE_OPTIONS, label: { zh: '状态', en: 'State' }, readOnly: true, defaultValue: 1, filter: 'equals' },
    agentId: { kind: 'reference', family: 'User', display: 'name', optionsFilter: { type: 'agent' }, label: { zh: '代理商', en: 'Agent' }, filter: 'equals', ownedBy: 'agent', defaultFrom: { reference: 'schoolId', field: 'agentId' } },
    schoolId: schoolRef({ help: { zh: '设备发往的学校', en: 'The school the devices go to' } }),
    consigneeName: { kind: 'text', label: { zh: '收货人', en: 'Consignee' }, required: true, max: 50, filter: 'name' },
    consigneePhone: { kind: 'phone', phoneKind: 'serviceLine', label: { zh: '收货电话', en: 'Consignee phone' }, required: true },
    deliveryAddress: { kind: 'text', label: { zh: '收货地址', en: 'Delivery address' }, required: true, max: 200, list: false },
    items: {
      kind: 'lines',
      table: 'device_order_items',
      label: { zh: '订单明细', en: 'Order lines' },
      required: true,
      min: 1,
      max: 50,
      list: false,
      fields: {
        deviceClassCode: { kind: 'reference', family: 'DeviceClass', key: 'code', display: 'name', label: { zh: '单品', en: 'Product model' }, required: true },
        quantity: { kind: 'number', label: { zh: '数量', en: 'Quantity' }, required: true, min: 1, max: 1000, defaultValue: 1 },
        unitPrice: { kind: 'money', label: { zh: '单价', en: 'Unit price' }, readOnly: true },
        amount: { kind: 'money', label: { zh: '金额', en: 'Amount' }, readOnly: true },
      },
      amount: { quantity: 'quantity', unitPrice: 'unitPrice', into: 'amount', total: 'totalAmount', priceFrom: { reference: 'deviceClassCode', field: 'unitPrice' } },
    },
    totalAmount: { kind: 'money', label: { zh: '订单金额', en: 'Total' }, readOnly: true },
    deliveryId: { kind: 'reference', family: 'DeviceDelivery', display: 'deliveryNo', label: { zh: '发货单', en: 'Delivery' }, readOnly: true },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
    createdAt: { kind: 'datetime', label: { zh: '下单时间', en: 'Ordered at' }, readOnly: true, sortable: true, filter: 'range' },
  },
  workflow: {
    field: 'state',
    initial: 1,
    // Edited only before the company confirms it; a confirmed or shipped order is the company's commitment.
    editableIn: [1],
    deletableIn: [1, 5],
    transitions: [
      { verb: 'Confirm', from: [1], to: 2, button: 'examine', label: { zh: '确认', en: 'Confirm' }, confirm: { zh: '确认该订单？', en: 'Confirm this order?' } },
      {
        verb: 'Ship',
        from: [2],
        to: 3,
        button: 'send',
        label: { zh: '发货', en: 'Ship' },
        fields: {
          serialNumbers: {
            kind: 'textarea',
            label: { zh: '设备序列号', en: 'Serial numbers' },
            required: true,
            max: 20000,
            help: { zh: '每行一个，或用逗号分隔；型号和数量须与订单明细一致', en: 'One per line or separated by commas; models and counts must match the order lines' },
          },
          warrantyMonths: { kind: 'number', label: { zh: '质保月数', en: 'Warranty (months)' }, required: true, min: 0, max: 120, defaultValue: 12 },
        },
      },
      { verb: 'Complete', from: [3], to: 4, button: 'state', label: { zh: '完成', en: 'Complete' }, confirm: { zh: '确认订单已完成？', en: 'Mark this order completed?' } },
      { verb: 'Cancel', from: [1, 2], to: 5, button: 'close', label: { zh: '取消', en: 'Cancel' }, danger: true, confirm: { zh: '取消该订单？', en: 'Cancel this order?' } },
    ],
  },
});
