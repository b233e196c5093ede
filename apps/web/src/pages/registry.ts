import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { frameOf, type FrameDef } from '@campus/contract';

/** A page the shell can open in a tab: one frame of the contract and the code that draws it. */
export interface PageEntry {
  /** Route name = the frame's `index`. */
  index: string;
  frame: FrameDef;
  /** Stable name kept in the tab entry (SEED-SPEC section 3: "component name"). */
  componentName: string;
  Component: LazyExoticComponent<ComponentType>;
}

/**
 * Declares the page of one frame. The frame must exist in the contract (a typo throws at start) and
 * the loader is a dynamic import, so every page is its own chunk.
 */
export function definePage(index: string, componentName: string, load: () => Promise<{ default: ComponentType }>): PageEntry {
  return { index, frame: frameOf(index), componentName, Component: lazy(load) };
}

/** The page of a frame shown by the generic resource page (apps/web/src/resources). */
function defineResourcePage(index: string, componentName: string): PageEntry {
  return definePage(index, componentName, () => import('../resources/pages').then((module) => ({ default: module.resourcePageFor(index) })));
}

/** The page of a report's frame, drawn by the generic report page (apps/web/src/reports). */
function defineReportPage(index: string, componentName: string): PageEntry {
  return definePage(index, componentName, () => import('../reports/pages').then((module) => ({ default: module.reportPageFor(index) })));
}

/**
 * The pages that exist. A frame without an entry here is "declared but not built": it is left out of
 * the menu and the route guard sends it to /index. A later page registers itself with one line.
 */
const PAGES: readonly PageEntry[] = [
  definePage('index', 'IndexPage', () => import('./index/index-page')),
  definePage('personalInformation', 'PersonalInformationPage', () => import('./personal-information/personal-information-page')),
  defineResourcePage('schoolManage', 'SchoolManagePage'),
  defineResourcePage('codeManageA', 'CodeManageAPage'),
  defineResourcePage('codeManageB', 'CodeManageBPage'),
  defineResourcePage('signCardManage', 'SignCardManagePage'),
  defineResourcePage('singleProManage', 'SingleProManagePage'),
  defineResourcePage('deviceInformation', 'DeviceInformationPage'),
  defineResourcePage('orderManage', 'OrderManagePage'),
  defineResourcePage('equipmentDelivery', 'EquipmentDeliveryPage'),
  defineResourcePage('warrantyManage', 'WarrantyManagePage'),
  defineResourcePage('studentInfo', 'StudentInfoPage'),
  defineResourcePage('parentUser', 'ParentUserPage'),
  defineResourcePage('teacherInfo', 'TeacherInfoPage'),
  defineResourcePage('pickupInfo', 'PickupInfoPage'),
  defineResourcePage('salesTeam', 'SalesTeamPage'),
  defineResourcePage('sellArea', 'SellAreaPage'),
  defineResourcePage('agencyArea', 'AgencyAreaPage'),
  defineResourcePage('equipmentMaintenance', 'EquipmentMaintenancePage'),
  defineResourcePage('userCompany', 'UserCompanyPage'),
  defineResourcePage('userExternal', 'UserExternalPage'),
  defineResourcePage('userChild', 'UserChildPage'),
  defineResourcePage('mainOperationLog', 'MainOperationLogPage'),
  defineReportPage('productStatistics', 'ProductStatisticsPage'),
  defineReportPage('warehousingStatistics', 'WarehousingStatisticsPage'),
  defineResourcePage('directoryManage', 'DirectoryManagePage'),
  definePage('jurisdictionManage', 'JurisdictionManagePage', () => import('./jurisdiction-manage/jurisdiction-manage-page')),
];

export const PAGE_REGISTRY: ReadonlyMap<string, PageEntry> = new Map(PAGES.map((page) => [page.index, page]));

export function isPageRegistered(index: string): boolean {
  return PAGE_REGISTRY.has(index);
}

export function pageOf(index: string): PageEntry | undefined {
  return PAGE_REGISTRY.get(index);
}
