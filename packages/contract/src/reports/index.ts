import type { ReportDef } from './define.js';
import { DiscernStatistics, SchoolStatistics } from './attendance.js';
import { OrderStatistics } from './order-statistics.js';
import { OpsDailyReport } from './ops-daily.js';
import { DeviceStatistics, WarehouseStatistics } from './device-statistics.js';
import { MisIdentifyPerson } from './mis-identify-person.js';
import { FrequentStatistics, FunctionTrends, UaStatistics, UserActivity, UserComposition, UserStatistics } from './app-use.js';
import { TransactionMonthStatistics, TransactionStatistics } from './transaction-statistics.js';
import { DataCenterAppActivity, DataCenterDevices, DataCenterPayments, DataCenterRecognitions } from './data-center.js';

export * from './define.js';
export * from './schemas.js';
export * from './device-statistics.js';
export * from './mis-identify-person.js';
export * from './transaction-statistics.js';
export * from './attendance.js';
export * from './order-statistics.js';
export * from './ops-daily.js';
export * from './app-use.js';
export * from './data-center.js';

/** Every declared report, by name. */
export const REPORTS: Readonly<Record<string, ReportDef>> = Object.fromEntries([DeviceStatistics, WarehouseStatistics, MisIdentifyPerson, TransactionStatistics, TransactionMonthStatistics, SchoolStatistics, DiscernStatistics, OrderStatistics, UaStatistics, UserActivity, UserComposition, FrequentStatistics, FunctionTrends, UserStatistics, OpsDailyReport, DataCenterRecognitions, DataCenterPayments, DataCenterAppActivity, DataCenterDevices].map((r) => [r.name, r as ReportDef]));

/** The report shown on a page (route index), if any: the first, where a page shows several. */
export function reportOfFrame(frame: string): ReportDef | undefined {
  return reportsOfFrame(frame)[0];
}

/** Every report shown on a page, in declaration order (DataCenter shows four). */
export function reportsOfFrame(frame: string): ReportDef[] {
  return Object.values(REPORTS).filter((r) => r.views.some((v) => v.frame === frame));
}
export * from './cockpit.js';
