/**
 * The server's one list of family modules, and what start-up installs from it. A family whose
 * declaration is all it needs has no module; a family with rules, actions, routes, badges or jobs has
 * one beside its name (resources/<family>.ts) and one line here. The families themselves are listed
 * once, in the contract (FAMILY_LIST); their tables are built from that list (db/schema/resources.ts).
 */
import { FAMILY_LIST, SETTINGS, type ResourceDef } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { installNotificationHandlers } from '../finance/notifications.js';
import { installBadges } from '../platform/badges.js';
import type { DailyJob } from '../platform/daily-jobs.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { installIntakeHandlers } from '../terminals/intake-handlers.js';
import { badgesOf, checkFamilyModules, installFamilyModules, seamsOf, type FamilyModule } from './engine/modules.js';
import { childUserModule, companyUserModule, externalUserModule } from './accounts.js';
import { appUseEventModule } from './app-use.js';
import { appStartupPageModule, posterModule, sysNoticeModule } from './app-screens.js';
import { albumBookModule, albumBookVersionModule, albumOrderModule, albumPhotoModule, albumPriceConfigModule, albumTaskModule, albumTemplateModule } from './album.js';
import { appVersionModule } from './app-version.js';
import { developerDeliveryModule, developerModule } from './developer.js';
import { deviceModule, deviceWarrantyModule } from './device.js';
import { liveFeedbackModule, userFeedbackModule } from './feedback.js';
import { feverAlertModule } from './fever-alert.js';
import { agentFundModule, paymentRecordModule, schoolChargeModule, serviceConfigModule } from './finance.js';
import { schoolHolidayModule } from './holiday.js';
import { maintenanceTicketModule } from './maintenance.js';
import { commodityCommentModule, commodityOrderModule, couponModule, marketOrderModule } from './mall.js';
import { educationCoursewareModule } from './education.js';
import { operationLogModule } from './operation-log.js';
import { orderModule } from './order.js';
import { appCooperationPlatformModule } from './partners.js';
import { questionnaireModule } from './questionnaire.js';
import { refundModule } from './refund.js';
import { parentModule, pushDeliveryModule, serviceReceiverModule, studentServiceModule } from './parents.js';
import { agentAreaModule, salesTeamModule } from './sales.js';
import { schoolModule } from './school.js';
import { terminalModule } from './terminal.js';
import { terminalCommandModule } from './terminal-command.js';
import { terminalConfigModule } from './terminal-config.js';
import { terminalAppUpgradeModule, terminalAppVersionModule } from './terminal-upgrades.js';

/** Every family's server module, once. */
export const FAMILY_MODULES: readonly FamilyModule[] = [
  albumPriceConfigModule,
  albumTemplateModule,
  albumTaskModule,
  albumPhotoModule,
  albumBookModule,
  albumBookVersionModule,
  albumOrderModule,
  companyUserModule,
  externalUserModule,
  childUserModule,
  appStartupPageModule,
  posterModule,
  sysNoticeModule,
  appVersionModule,
  developerModule,
  developerDeliveryModule,
  deviceModule,
  deviceWarrantyModule,
  userFeedbackModule,
  liveFeedbackModule,
  feverAlertModule,
  serviceConfigModule,
  agentFundModule,
  paymentRecordModule,
  schoolChargeModule,
  schoolHolidayModule,
  maintenanceTicketModule,
  educationCoursewareModule,
  operationLogModule,
  orderModule,
  appCooperationPlatformModule,
  questionnaireModule,
  refundModule,
  agentAreaModule,
  salesTeamModule,
  schoolModule,
  terminalModule,
  terminalCommandModule,
  terminalConfigModule,
  terminalAppVersionModule,
  terminalAppUpgradeModule,
  marketOrderModule,
  commodityOrderModule,
  couponModule,
  commodityCommentModule,
  parentModule,
  studentServiceModule,
  serviceReceiverModule,
  pushDeliveryModule,
  appUseEventModule,
];

/**
 * Checks the modules against the declarations (refusing with FamilyModuleError), then installs what
 * they give: the engine's hooks and actions, the menu badges, and the handlers of the seams the
 * payment providers' notifications and the terminal intake call (`seams`, one module per handler). Runs before anything writes through the engine (the
 * server's start, the demo seed); running it again installs the same.
 */
export function installFamilies(declared: readonly ResourceDef[] = FAMILY_LIST, modules: readonly FamilyModule[] = FAMILY_MODULES): void {
  installFamilyModules(declared, modules, SETTINGS);
  installBadges(badgesOf(modules));
  const seams = seamsOf(modules);
  installNotificationHandlers(seams.notifications ?? {});
  installIntakeHandlers(seams.intake ?? {});
}

/** The database tables of declared families that do not exist, by family name (a migration not generated or not applied). */
export async function missingFamilyTables(db: Executor, declared: readonly ResourceDef[] = FAMILY_LIST): Promise<Map<string, string>> {
  const names = [...new Set(declared.map((def) => def.table))];
  const result = (await db.execute(
    sql`select name from unnest(array[${sql.join(
      names.map((name) => sql`${name}`),
      sql`, `,
    )}]::text[]) as t(name) where to_regclass(quote_ident(name)) is null`,
  )) as unknown as { rows: { name: string }[] };
  const missing = new Set(result.rows.map((row) => row.name));
  return new Map(declared.filter((def) => missing.has(def.table)).map((def) => [def.name, def.table]));
}

/** Refuses to start (FamilyModuleError) when a declared family has no table in the database. */
export async function checkFamilyTables(db: Executor, declared: readonly ResourceDef[] = FAMILY_LIST): Promise<void> {
  checkFamilyModules(declared, [], await missingFamilyTables(db, declared));
}

/** The families' daily jobs, for main.ts to schedule with the platform's. */
export const familyDailyJobs = (): DailyJob[] => FAMILY_MODULES.flatMap((module) => module.dailyJobs ?? []);

/** The families' recurring jobs, for main.ts to schedule with the platform's. */
export const familyRecurringJobs = (): RecurringJob[] => FAMILY_MODULES.flatMap((module) => module.recurringJobs ?? []);
