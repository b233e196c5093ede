/** The one list of reports the server runs: each report module is listed here and nowhere else. */
import { REPORTS } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import { discernStatisticsReport, schoolStatisticsReport } from './attendance-statistics.js';
import { frequentStatisticsReport, functionTrendsReport, uaStatisticsReport, userActivityReport, userCompositionReport, userStatisticsReport } from './app-use.js';
import { deviceStatisticsReport, warehouseStatisticsReport } from './device-statistics.js';
import { orderStatisticsReport } from './order-statistics.js';
import { opsDailyReport } from './ops-daily.js';
import { misIdentifyPersonReport } from './mis-identify-person.js';
import { cockpitRoutes } from './cockpit.js';
import { DATA_CENTER_REPORTS } from './data-center.js';
import { registerReportRoutes } from './routes.js';
import type { ReportModule } from './source.js';
import { transactionMonthStatisticsReport, transactionStatisticsReport } from './transaction-statistics.js';

export const REPORT_MODULES: readonly ReportModule[] = [
  deviceStatisticsReport,
  warehouseStatisticsReport,
  misIdentifyPersonReport,
  transactionStatisticsReport,
  transactionMonthStatisticsReport,
  schoolStatisticsReport,
  discernStatisticsReport,
  orderStatisticsReport,
  uaStatisticsReport,
  userActivityReport,
  userCompositionReport,
  frequentStatisticsReport,
  functionTrendsReport,
  userStatisticsReport,
  opsDailyReport,
  ...DATA_CENTER_REPORTS,
];

/**
 * Refuses (one line) a list with a report twice, a module of an undeclared report, or a declared
 * report without a module: a missing source is found at start, not at the first call.
 */
export function checkReportModules(modules: readonly ReportModule[], declared: Readonly<Record<string, unknown>> = REPORTS): void {
  const seen = new Set<string>();
  for (const { def } of modules) {
    if (seen.has(def.name)) throw new Error(`report ${def.name} is listed twice in REPORT_MODULES`);
    if (declared[def.name] !== def) throw new Error(`report ${def.name} is not declared in the contract's REPORTS`);
    seen.add(def.name);
  }
  const missing = Object.keys(declared).filter((name) => !seen.has(name));
  if (missing.length > 0) throw new Error(`report ${missing.join(', ')} has no source in REPORT_MODULES`);
}

export async function reportRoutes(app: FastifyInstance): Promise<void> {
  checkReportModules(REPORT_MODULES);
  for (const report of REPORT_MODULES) registerReportRoutes(app, report);
  await cockpitRoutes(app);
}
