/**
 * NVRs (nvrManage): the network video recorders of a school and the cameras on their channels
 * (parent and lines: the channels are written with their NVR). The NVR's login is a credential the
 * server itself would use to reach the recorder, so it is sealed rather than hashed, and never answered.
 */
import { defineResource } from './define.js';
import { enabledField, schoolRef } from './common.js';

/** Channels one recorder may have: the largest NVRs on the market have 256. */
export const NVR_MAX_CHANNELS = 256;

export const Nvr = defineResource({
  name: 'Nvr',
  label: { zh: 'NVR', en: 'NVR' },
  table: 'nvrs',
  views: [{ frame: 'nvrManage' }],
  scope: { via: 'school', field: 'schoolId' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    schoolId: schoolRef(),
    name: { kind: 'text', label: { zh: '名称', en: 'Name' }, required: true, max: 50, filter: 'name', sortable: true },
    serialNumber: { kind: 'text', label: { zh: '序列号', en: 'Serial no.' }, required: true, max: 64, unique: true, filter: 'equals', width: 160 },
    ip: {
      kind: 'text',
      label: { zh: 'IP 地址', en: 'IP address' },
      required: true,
      max: 45,
      // IPv4 or IPv6 (hex groups and colons): a host name would need resolving from the school's network.
      pattern: '^(\\d{1,3}(\\.\\d{1,3}){3}|[0-9A-Fa-f:]{2,45})$',
      patternMessage: { zh: '请输入 IPv4 或 IPv6 地址', en: 'an IPv4 or IPv6 address' },
      filter: 'code',
      width: 140,
    },
    port: { kind: 'number', label: { zh: '端口', en: 'Port' }, required: true, min: 1, max: 65535, defaultValue: 8000, width: 80 },
    userName: { kind: 'text', label: { zh: '登录用户', en: 'Login user' }, required: true, max: 50, list: false },
    password: { kind: 'password', sealed: true, label: { zh: '登录密码', en: 'Login password' }, required: true },
    channelCount: { kind: 'number', label: { zh: '通道数', en: 'Channels' }, required: true, min: 1, max: NVR_MAX_CHANNELS, width: 90 },
    // Live: the school's terminals try to reach the recorder from the school's network and report at
    // their heartbeat (the console's server usually cannot reach it); each report that reached it sets
    // `offlineAt` 3 heartbeat intervals ahead, and whether it has passed is answered at the time of the
    // request, as a terminal's online state is.
    online: {
      kind: 'bool',
      computed: true,
      until: 'offlineAt',
      readOnly: true,
      label: { zh: '在线', en: 'Online' },
      filter: 'equals',
      trueLabel: { zh: '在线', en: 'Online' },
      falseLabel: { zh: '离线', en: 'Offline' },
      width: 80,
    },
    lastSeenAt: { kind: 'datetime', label: { zh: '最后在线', en: 'Last reached' }, readOnly: true, width: 170 },
    offlineAt: { kind: 'datetime', label: { zh: '离线时间', en: 'Offline from' }, readOnly: true, list: false, exported: false },
    channels: {
      kind: 'lines',
      table: 'nvr_channels',
      label: { zh: '通道', en: 'Channels' },
      max: NVR_MAX_CHANNELS,
      fields: {
        channelNo: { kind: 'number', label: { zh: '通道号', en: 'Channel' }, required: true, min: 1, max: NVR_MAX_CHANNELS, atMost: { field: 'channelCount', message: 'nvr.channelBeyondCount' } },
        cameraName: { kind: 'text', label: { zh: '摄像头名称', en: 'Camera name' }, required: true, max: 50 },
        cameraSerial: { kind: 'text', label: { zh: '摄像头序列号', en: 'Camera serial no.' }, max: 64 },
        cameraModel: { kind: 'text', label: { zh: '摄像头型号', en: 'Camera model' }, max: 64 },
        enabled: enabledField(),
      },
      // Each channel once (the recorder's count bounds them, above).
      rules: { distinct: [{ field: 'channelNo', message: 'nvr.channelTwice' }] },
    },
  },
});
