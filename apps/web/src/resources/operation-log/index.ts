/**
 * The operation log's page: its `action` holds a code (`update`, `assign`, `set:state`), so its filter
 * is a pick list of the labelled codes and its cells read in the row family's words; `ids` read as the
 * records' titles the server wrote into `labels`, which is never shown on its own.
 */
import type { FieldDef, OperationLogLabels, ResourceDef } from '@campus/contract';
import { operationActionOptions, operationActionText } from '../log/operation-actions';
import { recordsText } from '../record/changes-diff';
import type { WebFamilyModule } from '../resource-overrides';

function withActionOptions(def: ResourceDef): ResourceDef {
  const action = def.fields.action;
  if (!action) return def;
  const asEnum = { ...action, kind: 'enum', options: operationActionOptions() } as FieldDef;
  return { ...def, fields: { ...def.fields, action: asEnum } };
}

export const operationLogModule: WebFamilyModule = {
  family: 'OperationLog',
  log: {
    adjustDef: withActionOptions,
    cells: {
      action: (row, locale) => operationActionText(row.family, row.action, locale),
      ids: (row) => recordsText(row.ids, row.labels as OperationLogLabels | undefined),
    },
    recordHiddenFields: ['labels'],
  },
};
