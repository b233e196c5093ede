/** The pages of the declared reports: a frame of one report gets the report page, of several the board. */
import { reportsOfFrame } from '@campus/contract';
import type { ComponentType } from 'react';
import { ReportBoard, checkSharedFilters } from './report-board';
import { ReportPage } from './report-page';

const pages = new Map<string, ComponentType>();

/** The page component of a report's frame (cached, so React sees one component type per frame). */
export function reportPageFor(frame: string): ComponentType {
  const cached = pages.get(frame);
  if (cached) return cached;
  const defs = reportsOfFrame(frame);
  if (defs.length === 0) throw new Error(`No report is declared for the frame '${frame}'`);
  if (defs.length > 1) checkSharedFilters(defs);
  function FrameReportPage() {
    return defs.length > 1 ? <ReportBoard defs={defs} frame={frame} /> : <ReportPage def={defs[0]!} frame={frame} />;
  }
  FrameReportPage.displayName = `ReportPage(${frame})`;
  pages.set(frame, FrameReportPage);
  return FrameReportPage;
}
