/**
 * Every declared family's table, by family name: the ones built from declarations (resources.ts) and
 * the hand-written ones (`handWritten` in the declaration). Kept apart from resources.ts so the log
 * tables, which reference users, stay out of the schema's foreign-key circle (users ⇄ schools ⇄ sales teams).
 */
import { loginAttempts, operationLog } from './logs.js';
import { builtFamilyTable } from './resources.js';
import { salesTeams } from './sales.js';
import { smsOutbox } from './sms.js';
import type { ResourceTable } from './table.js';
import { users } from './users.js';

/** The engine serves these like any family, reading their columns by field name. */
const HAND_WRITTEN_TABLES: Readonly<Record<string, unknown>> = {
  CompanyUser: users,
  ExternalUser: users,
  ChildUser: users,
  SalesTeam: salesTeams,
  LoginLog: loginAttempts,
  OperationLog: operationLog,
  SmsOutbox: smsOutbox,
};

/** The table of a declared family. */
export function familyTable(name: string): ResourceTable {
  return (HAND_WRITTEN_TABLES[name] as ResourceTable | undefined) ?? builtFamilyTable(name);
}
