/** The pages of the resource families: every frame of a declared family gets the generic page (or the log or tree page). */
import { familiesOfFrame, isLogFamily, settingsOfFamily, type ResourceDef } from '@campus/contract';
import { useLocale } from '../lib/i18n';
import { labelText } from './shared/labels';
import { Suspense, lazy, type ComponentType } from 'react';
import { Tabs } from 'antd';
import { webModuleOf } from './families';
import { ResourcePage } from './list/resource-page';
import { SettingCard } from './list/setting-card';

// The other kinds of page each download with the first frame that shows one: a generic list does not
// carry the log page's date range or the tree table.
const LogPage = lazy(() => import('./log/log-page').then((module) => ({ default: module.LogPage })));
const TreePage = lazy(() => import('./tree/tree-page').then((module) => ({ default: module.TreePage })));

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
    const familyModule = webModuleOf(def.name);
    // Log families (mode 'log') are read-only lists paged by key: a page of their own.
    if (isLogFamily(def)) return <LogPage def={def} frame={frame} parts={familyModule?.log} />;
    // A tree family is read whole and moved by drag: its page is the tree table.
    if (def.tree) return <TreePage def={def} frame={frame} />;
    const list = <ResourcePage def={def} frame={frame} overrides={familyModule?.overrides} />;
    if (!familyModule?.Below) return list;
    // A family's own part under its list (the holidays' national calendar) downloads with its first page.
    return (
      <div className="page-stack">
        {list}
        <Suspense fallback={null}>
          <familyModule.Below />
        </Suspense>
      </div>
    );
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
