/**
 * Which frames have a page, without the pages' code. The index page asks it to offer only what opens,
 * and registry.ts, which loads every page (the index page among them), builds its entries from the
 * same lists, so the two cannot disagree.
 */
import { REPORTS, RESOURCES } from '@campus/contract';

/** Pages drawn by their own code, by frame, with the component name kept in the tab entry. */
export const CUSTOM_PAGE_NAMES = {
  index: 'IndexPage',
  personalInformation: 'PersonalInformationPage',
  jurisdictionManage: 'JurisdictionManagePage',
  personSearch: 'PersonSearchPage',
  jsc: 'JscPage',
  systemView: 'SystemViewPage',
  homeCustomization: 'HomeCustomizationPage',
  displayLargeScreen: 'DisplayLargeScreenPage',
} as const;

export type CustomPageIndex = keyof typeof CUSTOM_PAGE_NAMES;

/** The route's component name, derived from the frame: `schoolManage` → `SchoolManagePage`. */
export function componentNameOf(index: string): string {
  return `${index.charAt(0).toUpperCase()}${index.slice(1)}Page`;
}

/** The frames of the families' views, but a child family's (those are drawer tabs). */
export function declaredFamilyFrames(): string[] {
  return Object.values(RESOURCES)
    .filter((def) => !def.parent)
    .flatMap((def) => def.views.map((view) => view.frame));
}

/** The frames of the reports' views, each once (DataCenter shows four reports). */
export function declaredReportFrames(): string[] {
  return [...new Set(Object.values(REPORTS).flatMap((def) => def.views.map((view) => view.frame)))];
}

const REGISTERED = new Set<string>([...Object.keys(CUSTOM_PAGE_NAMES), ...declaredFamilyFrames(), ...declaredReportFrames()]);

/** Whether a frame has a page: one without is "declared but not built", left out of the menu. */
export function isPageRegistered(index: string): boolean {
  return REGISTERED.has(index);
}
