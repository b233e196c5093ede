/**
 * The one list of the web's family modules: every family whose page differs from what its declaration
 * draws has one module in its own folder and one line here (like the server's FAMILY_MODULES and the
 * contract's FAMILY_LIST). Nothing else on the web names a family.
 */
import { childUserModule, externalUserModule } from './accounts';
import { albumBookModule } from './album-book';
import { albumBookVersionModule } from './album-book-version';
import { albumTaskModule } from './album-task';
import { albumTemplateModule } from './album-template';
import { nvrModule } from './nvr';
import { operationLogModule } from './operation-log';
import { questionnaireModule } from './questionnaire';
import type { WebFamilyModule } from './resource-overrides';
import { salesTeamModule } from './sales';
import { schoolModule } from './school';
import { schoolHolidayModule } from './school-holiday';
import { terminalModule } from './terminal';
import { terminalConfigModule } from './terminal-config';

export const WEB_FAMILY_MODULES: readonly WebFamilyModule[] = [
  schoolModule,
  schoolHolidayModule,
  externalUserModule,
  childUserModule,
  salesTeamModule,
  terminalModule,
  terminalConfigModule,
  nvrModule,
  questionnaireModule,
  operationLogModule,
  albumTemplateModule,
  albumTaskModule,
  albumBookModule,
  albumBookVersionModule,
];

const byFamily = new Map(WEB_FAMILY_MODULES.map((module) => [module.family, module]));

/** The web module of a family, if its page differs from the declaration's. */
export function webModuleOf(family: string): WebFamilyModule | undefined {
  return byFamily.get(family);
}
