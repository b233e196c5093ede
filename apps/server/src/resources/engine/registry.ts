/** Finds a family's table and what a reference field joins to. */
import type { FieldDef, ResourceDef } from '@campus/contract';
import { familyTable } from '../../db/schema/family-tables.js';
import { salesTeams } from '../../db/schema/sales.js';
import { users } from '../../db/schema/users.js';
import type { ResourceTable } from '../../db/schema/table.js';

export interface ReferenceJoin {
  table: ResourceTable;
  key: string;
  display: string;
}

const plainTables: Record<string, ResourceTable> = {
  User: users as unknown as ResourceTable,
  SalesTeam: salesTeams as unknown as ResourceTable,
};


export function tableOf(def: ResourceDef): ResourceTable {
  return familyTable(def.name);
}

/**
 * Hand-written tables name some columns differently from the declaration's fields: the accounts
 * keep their password hash in `passwordHash`. Generated tables store a password field under its own name.
 */
const STORED_AS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  CompanyUser: { password: 'passwordHash' },
  ExternalUser: { password: 'passwordHash' },
  ChildUser: { password: 'passwordHash' },
};

/** The table property a field is stored in. */
export function columnKeyOf(def: ResourceDef, field: string): string {
  return STORED_AS[def.name]?.[field] ?? field;
}

/** The table, key column and display column a reference field points at. */
export function referenceTargetOf(field: Extract<FieldDef, { kind: 'reference' }>): ReferenceJoin {
  const table = plainTables[field.family] ?? familyTable(field.family);
  return { table, key: field.key ?? 'id', display: field.display };
}
