/**
 * The page of a frame that shows several reports (DataCenter): one filter bar and grain switch over
 * all of them (their filters and periods are declared alike), then a panel per report.
 */
import type { ReportDef, ReportGrain } from '@campus/contract';
import { Card, Col, Row, Segmented } from 'antd';
import { useMemo, useState } from 'react';
import { useT } from '../lib/i18n';
import { FilterBar } from '../resources/list/filter-bar';
import { buildFilterPayload, type FilterPayload } from '../resources/list/filter-payload';
import { ReportPanel } from './report-panel';
import { GRAIN_KEYS, initialValuesOf, periodRangeOf } from './report-values';
import './report-page.css';

export interface ReportBoardProps {
  defs: readonly ReportDef[];
  frame: string;
}

/** Refuses reports that cannot share one filter bar: different filters or periods would filter some panels by nothing. */
export function checkSharedFilters(defs: readonly ReportDef[]): void {
  const shapeOf = (def: ReportDef) => JSON.stringify([Object.keys(def.filters), def.period]);
  const first = defs[0];
  const odd = defs.find((def) => shapeOf(def) !== shapeOf(first!));
  if (odd) throw new Error(`The report ${odd.name} declares other filters or another period than ${first!.name}, on the same page`);
}

export function ReportBoard({ defs, frame }: ReportBoardProps) {
  const t = useT();
  const [lead] = defs as [ReportDef, ...ReportDef[]];
  const filterDef = useMemo(() => ({ fields: lead.filters }), [lead.filters]);
  const initialValues = useMemo(() => initialValuesOf(lead), [lead]);
  const [filters, setFilters] = useState<FilterPayload>(() => buildFilterPayload(filterDef, initialValues));
  const [grain, setGrain] = useState<ReportGrain>(lead.period?.defaultGrain ?? 'day');
  const range = periodRangeOf(lead, filters);

  return (
    <div className="report-page report-board">
      <Card size="small" className="report-filters">
        <FilterBar
          def={filterDef}
          formName={`report-${frame}`}
          hiddenFields={new Set()}
          fixedValues={{}}
          initialValues={initialValues}
          onSearch={(values) => setFilters(buildFilterPayload(filterDef, values))}
        />
        {lead.period && lead.period.grains.length > 1 && (
          <Segmented<ReportGrain>
            aria-label={t('report.grain')}
            value={grain}
            options={lead.period.grains.map((value) => ({ value, label: t(GRAIN_KEYS[value]) }))}
            onChange={setGrain}
          />
        )}
      </Card>
      <Row gutter={[12, 12]}>
        {defs.map((def) => (
          <Col key={def.name} xs={24} xxl={12}>
            <ReportPanel def={def} frame={frame} filters={filters} grain={grain} range={range} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
