/** The data columns of a list: built from the declaration, with the row switches of its toggles, reshaped by a family. */
import { useMemo } from 'react';
import { useVisibilityProbes } from '../../hooks/use-visibility-probes';
import { useLocale, useT } from '../../lib/i18n';
import { buildColumns, type ResourceColumn } from './columns';
import type { ResourceOverrides } from '../resource-overrides';
import type { ResourceList } from './use-resource-list';

/** @example const columns = useResourceColumns(list, hidden.listed, schoolOverrides.columns); */
export function useResourceColumns(list: ResourceList, hiddenFields: ReadonlySet<string>, reshape?: ResourceOverrides['columns']): ResourceColumn[] {
  const t = useT();
  const locale = useLocale();
  const probes = useVisibilityProbes();
  const { def, sort, togglingIds, can } = list;
  return useMemo(() => {
    const built = buildColumns(def, {
      locale,
      hideAmountColumns: probes?.hideAmountColumns ?? false,
      hiddenFields,
      sort,
      toggles: list.buttons.toggles,
      onToggle: (row, field, value) => list.confirmToggle([row.id], field, value, list.rowTitle(row)),
      togglingIds,
    });
    return reshape ? reshape(built, { locale, t }) : built;
    // `list.buttons`, `list.confirmToggle` and `list.rowTitle` are rebuilt each render from `def`, `can` and the list's state listed here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [def, locale, probes?.hideAmountColumns, hiddenFields, sort, togglingIds, can, reshape, t]);
}
