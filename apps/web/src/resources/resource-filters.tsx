/** The filter bar of a list, in its card: searching applies the filters to the list controller. */
import { Card } from 'antd';
import { FilterBar } from './filter-bar';
import type { ResourceList } from './use-resource-list';

interface ResourceFiltersProps {
  list: ResourceList;
  hiddenFields: ReadonlySet<string>;
  /** In a drawer (child tabs) the bar is narrower: two filters a row. */
  isEmbedded?: boolean;
}

export function ResourceFilters({ list, hiddenFields, isEmbedded = false }: ResourceFiltersProps) {
  return (
    <Card size="small" className="resource-filter-card">
      <FilterBar
        def={list.def}
        formName={`filter-${list.frame}-${list.def.name}`}
        hiddenFields={hiddenFields}
        fixedValues={list.fixedValues}
        initialValues={list.initialFilters}
        maxPerRow={isEmbedded ? 2 : 4}
        onSearch={list.applyFilters}
      />
    </Card>
  );
}
