/** The pages of the resource families: every frame of a declared family gets the generic page (or the log or tree page). */
import { DEFAULT_HEARTBEAT_SECONDS, familiesOfFrame, isLogFamily, settingsOfFamily, type ResourceDef } from '@campus/contract';
import { useLocale } from '../lib/i18n';
import { labelText } from './shared/labels';
import { lazy, type ComponentType } from 'react';
import { Tabs } from 'antd';
import { childUserOverrides, externalUserOverrides } from './accounts';
import type { ResourceOverrides } from './resource-overrides';
import { ResourcePage } from './list/resource-page';
import { SettingCard } from './list/setting-card';
import { salesTeamOverrides } from './sales';
import { schoolOverrides } from './school';
import { terminalOverrides } from './terminal';
import { questionnaireOverrides } from './questionnaire';
import { terminalConfigOverrides } from './terminal-config';

// The other kinds of page each download with the first frame that shows one: a generic list does not
// carry the log page's date range, the tree table or the holiday calendar.
const LogPage = lazy(() => import('./log/log-page').then((module) => ({ default: module.LogPage })));
const TreePage = lazy(() => import('./tree/tree-page').then((module) => ({ default: module.TreePage })));
const SchoolHolidayPage = lazy(() => import('./school-holiday/school-holiday-page').then((module) => ({ default: module.SchoolHolidayPage })));

/** Families whose page differs from the generic one, by family name. */
const OVERRIDES: Readonly<Record<string, ResourceOverrides>> = {
  School: schoolOverrides,
  ExternalUser: externalUserOverrides,
  ChildUser: childUserOverrides,
  SalesTeam: salesTeamOverrides,
  Terminal: terminalOverrides,
  TerminalConfig: terminalConfigOverrides,
  // NVRs turn offline by themselves when no terminal reaches them: read again at the heartbeat pace.
  Nvr: { refreshSeconds: DEFAULT_HEARTBEAT_SECONDS },
  Questionnaire: questionnaireOverrides,
};

const pages = new Map<string, ComponentType>();

/**
 * The page component of a frame (cached, so React sees one component type per frame). A family on
 * several frames (License) gets one page per frame, each calling the API with its own `?view=`.
 */
export function resourcePageFor(frame: string): ComponentType {
  const cached = pages.get(frame);
  if (cached) return cached;
  const defs = familiesOfFrame(frame);
  if (defs.length === 0) throw new Error(`No resource family is declared for the frame '${frame}'`);
  const pageOf = (def: ResourceDef) => {
    const settings = settingsOfFamily(def.name);
    if (settings.length === 0) return listOf(def);
    // A family's declared settings (the fever threshold, the terminal settings) sit above its list.
    return (
      <div className="page-stack">
        {settings.map((setting) => (
          <SettingCard key={setting.name} setting={setting} frame={frame} />
        ))}
        {listOf(def)}
      </div>
    );
  };
  const listOf = (def: ResourceDef) => {
    // Log families (mode 'log') are read-only lists paged by key: a page of their own.
    if (isLogFamily(def)) return <LogPage def={def} frame={frame} />;
    // A tree family is read whole and moved by drag: its page is the tree table.
    if (def.tree) return <TreePage def={def} frame={frame} />;
    // A family whose page adds parts of its own beside the generic ones (the holidays' national calendar).
    if (def.name === 'SchoolHoliday') return <SchoolHolidayPage def={def} frame={frame} />;
    return <ResourcePage def={def} frame={frame} overrides={OVERRIDES[def.name]} />;
  };
  function FrameResourcePage() {
    const locale = useLocale();
    // While a page kind downloads, the tab pane's own Suspense shows its spinner (app/tabs/tab-panes.tsx).
    if (defs.length === 1) return pageOf(defs[0]!);
    // Several families on one page (refundManage: refunds and the provider call log): a tab each, the page's own first.
    return <Tabs destroyOnHidden items={defs.map((def) => ({ key: def.name, label: labelText(def.label, locale), children: pageOf(def) }))} />;
  }
  FrameResourcePage.displayName = `ResourcePage(${frame})`;
  pages.set(frame, FrameResourcePage);
  return FrameResourcePage;
}
