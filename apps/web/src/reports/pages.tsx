/** The pages of the declared reports: every frame of a report gets the generic report page. */
import { reportOfFrame } from '@campus/contract';
import type { ComponentType } from 'react';
import { ReportPage } from './report-page';

const pages = new Map<string, ComponentType>();

/** The page component of a report's frame (cached, so React sees one component type per frame). */
export function reportPageFor(frame: string): ComponentType {
  const cached = pages.get(frame);
  if (cached) return cached;
  const def = reportOfFrame(frame);
  if (!def) throw new Error(`No report is declared for the frame '${frame}'`);
  function FrameReportPage() {
    return <ReportPage def={def!} frame={frame} />;
  }
  FrameReportPage.displayName = `ReportPage(${frame})`;
  pages.set(frame, FrameReportPage);
  return FrameReportPage;
}
