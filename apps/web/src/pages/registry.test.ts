import { FRAMES, REPORTS, RESOURCES } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { CUSTOM_PAGE_NAMES, isPageRegistered } from './page-names';
import { PAGE_REGISTRY, componentNameOf, pageOf } from './registry';

describe('the page registry', () => {
  it('registers every view frame of every family that is not a child family', () => {
    const frames = Object.values(RESOURCES)
      .filter((def) => !def.parent)
      .flatMap((def) => def.views.map((view) => view.frame));
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) expect(pageOf(frame), frame).toBeDefined();
  });

  it("registers every report's frames", () => {
    const frames = Object.values(REPORTS).flatMap((def) => def.views.map((view) => view.frame));
    expect(frames).toContain('productStatistics');
    for (const frame of frames) expect(pageOf(frame)?.componentName, frame).toBe(componentNameOf(frame));
  });

  it('keeps the custom pages, also over a declaration on their frame', () => {
    expect(pageOf('index')?.componentName).toBe('IndexPage');
    expect(pageOf('personalInformation')?.componentName).toBe('PersonalInformationPage');
    // The login log is declared on jurisdictionManage, whose page is custom.
    expect(pageOf('jurisdictionManage')?.componentName).toBe('JurisdictionManagePage');
  });

  it('derives the component names the tabs keep from the frames', () => {
    expect(pageOf('schoolManage')?.componentName).toBe('SchoolManagePage');
    expect(pageOf('codeManageA')?.componentName).toBe('CodeManageAPage');
    expect(PAGE_REGISTRY.size).toBe(new Set([...PAGE_REGISTRY.values()].map((page) => page.componentName)).size);
  });

  it('gives every frame of the menu a page (DataCenter was the last), each from a declaration or a custom page', () => {
    const declared = new Set([...Object.values(RESOURCES), ...Object.values(REPORTS)].flatMap((def) => def.views.map((view) => view.frame)));
    // A report frame may be drawn by a custom page (systemView, the Overview): that is a page too.
    const undeclared = FRAMES.filter((frame) => frame.kind !== 'CUSTOM' && !declared.has(frame.index) && !(frame.index in CUSTOM_PAGE_NAMES));
    expect(undeclared.map((frame) => frame.index)).toEqual([]);
    for (const frame of FRAMES.filter((one) => one.kind !== 'CUSTOM')) expect(pageOf(frame.index), frame.index).toBeDefined();
  });

  it('answers isPageRegistered (which the index page reads without loading the pages) for exactly the registered frames', () => {
    for (const frame of FRAMES) expect(isPageRegistered(frame.index), frame.index).toBe(PAGE_REGISTRY.has(frame.index));
    expect(isPageRegistered('index')).toBe(true);
  });
});
