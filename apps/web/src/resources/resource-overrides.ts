/**
 * What a family changes on the web: its module (one per family that differs, in its own folder, listed
 * once in families.ts) and what the module may change in the generic page. Everything else comes from
 * the family's declaration. A page that differs more composes the parts (list/, form/, record/, …).
 */
import type { ButtonValue, ResourceDef, VisibilityProbes } from '@campus/contract';
import type { ComponentType, ReactNode } from 'react';
import type { Locale, MessageKey, Translate } from '../lib/i18n';
import type { ResourceColumn } from './list/columns';
import type { ResourceRow } from './shared/resource-api';

export interface ColumnContext {
  locale: Locale;
  t: Translate;
}

/** A row action the declaration does not have, e.g. SalesTeam's "Members" drawer. */
export interface ExtraRowAction {
  key: string;
  label: MessageKey;
  /** Button value required on the page's frame; none = anyone who can open the page. */
  button?: ButtonValue;
  /** Drawn while the action is open for `row`. */
  Panel: ComponentType<{ row: ResourceRow; frame: string; onClose: () => void }>;
}

export interface ResourceOverrides {
  /** Reshapes the built data columns (join address parts into one column, …). */
  columns?: (columns: ResourceColumn[], context: ColumnContext) => ResourceColumn[];
  rowActions?: readonly ExtraRowAction[];
  /**
   * Fields the caller's visibility probes hide from the filters, the table and the form, e.g. agent
   * merchant ids without `canSetAgentMerchantId` (the server refuses them anyway). Probes are
   * undefined until they arrive: hide then too.
   */
  hiddenFields?: (probes: VisibilityProbes | undefined) => readonly string[];
  /**
   * Buttons the caller's visibility probes take away although its grant holds them, e.g. template
   * writes without `canUpdateParamConfigs` (the server answers 403 anyway). Undefined probes: withhold.
   */
  withheldButtons?: (probes: VisibilityProbes | undefined) => readonly ButtonValue[];
  /** Reads the list again this often while the page is visible: rows whose state changes by itself (terminals going offline). */
  refreshSeconds?: number;
}

/** How a log family's page reads its rows where the declaration alone does not say (the operation log's codes). */
export interface LogParts {
  /** The declaration as the page uses it (a code field turned into a pick list of its labelled codes). */
  adjustDef?: (def: ResourceDef) => ResourceDef;
  /** Cells drawn by the family, by field, in the table and the record drawer. */
  cells?: Readonly<Record<string, (row: ResourceRow, locale: Locale) => ReactNode>>;
  /** Fields the record drawer leaves out (read into the other fields, never shown on their own). */
  recordHiddenFields?: readonly string[];
}

/** One family's web module: what its page changes, by part. Listed once in resources/families.ts. */
export interface WebFamilyModule {
  /** The family's name as the contract declares it. */
  family: string;
  /** What it changes in the generic list page. */
  overrides?: ResourceOverrides;
  /** Drawn under the family's list on its page (the holidays' national calendar). */
  Below?: ComponentType;
  /** What it changes in the log page (log families only). */
  log?: LogParts;
}
