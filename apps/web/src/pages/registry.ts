import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { frameOf, type FrameDef } from '@campus/contract';
import { CUSTOM_PAGE_NAMES, componentNameOf, declaredFamilyFrames, declaredReportFrames, isPageRegistered, type CustomPageIndex } from './page-names';

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
 * Pages drawn by their own code (their names: page-names.ts). They win over a declaration on the same
 * frame: the login log is declared on jurisdictionManage, but it is one panel of that page, not the page.
 */
const CUSTOM_PAGE_LOADERS: Record<CustomPageIndex, () => Promise<{ default: ComponentType }>> = {
  index: () => import('./index/index-page'),
  personalInformation: () => import('./personal-information/personal-information-page'),
  jurisdictionManage: () => import('./jurisdiction-manage/jurisdiction-manage-page'),
  personSearch: () => import('./person-search/person-search-page'),
  jsc: () => import('./jsc/jsc-page'),
  systemView: () => import('./system-view/system-view-page'),
  homeCustomization: () => import('./home-customization/home-customization-page'),
  displayLargeScreen: () => import('./large-screen/large-screen-page'),
};

const CUSTOM_PAGES: readonly PageEntry[] = (Object.keys(CUSTOM_PAGE_LOADERS) as CustomPageIndex[]).map((index) =>
  definePage(index, CUSTOM_PAGE_NAMES[index], CUSTOM_PAGE_LOADERS[index]),
);

/** Every frame a declaration shows: one generic page each. */
function declaredPages(): PageEntry[] {
  return [
    ...declaredFamilyFrames().map((frame) => defineResourcePage(frame, componentNameOf(frame))),
    ...declaredReportFrames().map((frame) => defineReportPage(frame, componentNameOf(frame))),
  ];
}

/**
 * The pages that exist: the custom pages and one page per declared frame, so a declared frame is
 * never forgotten. A frame without an entry is "declared but not built": it is left out of the menu
 * and the route guard sends it to /index.
 */
const PAGES: readonly PageEntry[] = [...CUSTOM_PAGES, ...declaredPages().filter((page) => !CUSTOM_PAGES.some((custom) => custom.index === page.index))];

export const PAGE_REGISTRY: ReadonlyMap<string, PageEntry> = new Map(PAGES.map((page) => [page.index, page]));

export { componentNameOf, isPageRegistered };

export function pageOf(index: string): PageEntry | undefined {
  return PAGE_REGISTRY.get(index);
}
