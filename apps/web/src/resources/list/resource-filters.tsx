/** The filter bar of a list, in its card: searching applies the filters to the list controller; saved views beside Search. */
import { Card } from 'antd';
import { FilterBar } from './filter-bar';
import { buildFilterPayload } from './filter-payload';
import { FilterViews } from './filter-views';
import type { ResourceList } from './use-resource-list';

interface ResourceFiltersProps {
  list: ResourceList;
  hiddenFields: ReadonlySet<string>;
  /** In a drawer (child tabs) the bar is narrower: two filters a row. */
  isEmbedded?: boolean;
  /** The page key the user's saved views are kept under; none = no saved views (a drawer's list). */
  preferencePage?: string | null;
}

export function ResourceFilters({ list, hiddenFields, isEmbedded = false, preferencePage = null }: ResourceFiltersProps) {
  return (
    <Card size="small" className="resource-filter-card">
      <FilterBar
        def={list.def}
        formName={`filter-${list.frame}-${list.def.name}`}
        hiddenFields={hiddenFields}
        fixedValues={list.fixedValues}
        initialValues={list.initialFilters}
        appliedValues={list.filterForm}
        maxPerRow={isEmbedded ? 2 : 4}
        onSearch={list.applyFilters}
        renderExtra={
          preferencePage
            ? (currentValues) => (
                <FilterViews
                  page={preferencePage}
                  currentFilters={() => buildFilterPayload(list.def, currentValues())}
                  onApply={(filters) => list.restore({ filters, pageIndex: 1, sort: list.sort })}
                />
              )
            : undefined
        }
      />
    </Card>
  );
}
