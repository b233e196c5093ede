/** The sales organisation: areas, teams of sellers and the areas agents hold. */
import { defineResource } from './define.js';

export const SalesArea = defineResource({
  name: 'SalesArea',
  label: { zh: '销售区域', en: 'Sales area' },
  table: 'sales_areas',
  views: [{ frame: 'sellArea' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '区域名称', en: 'Area name' }, required: true, max: 50, unique: true, filter: 'name', sortable: true },
    provinces: {
      kind: 'places',
      level: 'province',
      label: { zh: '覆盖省份', en: 'Provinces covered' },
      required: true,
      max: 500,
      filter: 'name',
      width: 240,
    },
    cities: {
      kind: 'places',
      level: 'city',
      label: { zh: '覆盖城市', en: 'Cities covered' },
      max: 1000,
      filter: 'name',
      width: 240,
      help: { zh: '留空表示覆盖所列省份的全部城市', en: 'Empty = every city of the provinces listed' },
    },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true },
  },
});

export const SalesTeam = defineResource({
  name: 'SalesTeam',
  label: { zh: '销售团队', en: 'Sales team' },
  table: 'sales_teams',
  views: [{ frame: 'salesTeam' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '团队名称', en: 'Team name' }, required: true, max: 50, unique: true, filter: 'name', sortable: true },
    salesAreaId: { kind: 'reference', family: 'SalesArea', display: 'name', label: { zh: '销售区域', en: 'Sales area' }, filter: 'equals' },
    leaderId: {
      kind: 'reference',
      family: 'CompanyUser',
      display: 'name',
      optionsFilter: { type: 'sales' },
      label: { zh: '组长', en: 'Leader' },
      filter: 'equals',
      help: { zh: '组长可见全组的学校', en: "The leader sees the whole team's schools" },
    },
    memberIds: {
      kind: 'reference',
      family: 'CompanyUser',
      display: 'name',
      optionsFilter: { type: 'sales' },
      multiple: true,
      // Edited with their levels on GetMembers / SaveMembers; the leader's data scope follows them.
      link: {
        table: 'sales_team_members',
        owner: 'teamId',
        target: 'userId',
        attributes: {
          verb: 'Members',
          fields: { level: { kind: 'number', label: { zh: '级别', en: 'Level' }, min: 1, max: 9, required: true } },
          orderBy: 'level',
          details: ['loginName', 'sellerPosition'],
          exclusive: true,
        },
      },
      readOnly: true,
      label: { zh: '成员', en: 'Members' },
      width: 260,
      help: { zh: '在"成员"中维护成员及级别', en: 'Edited under "Members", with their levels' },
    },
    createdAt: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, readOnly: true, sortable: true },
  },
});

export const AgentArea = defineResource({
  name: 'AgentArea',
  label: { zh: '代理区域', en: 'Agent area' },
  table: 'agent_areas',
  views: [{ frame: 'agencyArea' }],
  scope: { via: 'global' },
  titleField: 'province',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    agentId: {
      kind: 'reference',
      family: 'ExternalUser',
      display: 'name',
      optionsFilter: { type: 'agent' },
      label: { zh: '代理商', en: 'Agent' },
      required: true,
      filter: 'equals',
      width: 200,
    },
    province: { kind: 'region', part: 'province', label: { zh: '省', en: 'Province' }, required: true, filter: 'equals' },
    city: { kind: 'region', part: 'city', label: { zh: '市', en: 'City' }, filter: 'equals' },
    area: { kind: 'region', part: 'area', label: { zh: '区', en: 'District' }, filter: 'equals' },
    isExclusive: {
      kind: 'bool',
      label: { zh: '独家代理', en: 'Exclusive' },
      filter: 'equals',
      defaultValue: false,
      trueLabel: { zh: '独家', en: 'Exclusive' },
      falseLabel: { zh: '非独家', en: 'Shared' },
      help: { zh: '独家区域内不能再有其他代理商', en: 'No other agent may hold an exclusive area' },
    },
    validUntil: { kind: 'date', label: { zh: '有效期至', en: 'Valid until' }, sortable: true },
    remark: { kind: 'textarea', label: { zh: '备注', en: 'Remark' }, max: 500, list: false },
  },
});
