/** The filter bar of a family: one control per declared filter, Search / Reset, Enter searches. */
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import type { FieldDef, ResourceDef } from '@campus/contract';
import { Button, Col, Form, Grid, Row, Space } from 'antd';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocale, useT } from '../../lib/i18n';
import { textWidth } from '../../lib/text-width';
import { FilterControl } from './filter-control';
import { labelText } from '../shared/labels';
import { isPickable } from '../form/reference-select';
import { useRegionParents } from '../form/region-select';
import { useSchoolScope, withinReferencesOf } from '../shared/use-school-scope';

interface FilterBarProps {
  /** The family (or a report: its filters as `fields`). */
  def: Pick<ResourceDef, 'fields'>;
  /** Unique among open pages: it prefixes the control ids, which labels point at. */
  formName: string;
  hiddenFields: ReadonlySet<string>;
  fixedValues: Readonly<Record<string, unknown>>;
  initialValues: Record<string, unknown>;
  /** In a drawer the bar is narrower than the window its breakpoints measure: cap the columns. */
  maxPerRow?: number;
  onSearch: (values: Record<string, unknown>) => void;
  /**
   * Values the list set without the bar (the address bar, a saved view): shown when `revision`
   * changes, and at mount. Reset still goes back to `initialValues`.
   */
  appliedValues?: { values: Record<string, unknown>; revision: number };
  /** Labels of a form drawn above the bar (the log's time range): the label widths of both match. */
  alignWith?: readonly string[];
  /** More buttons after Search (the saved views); they may read what the bar holds now. */
  renderExtra?: (currentValues: () => Record<string, unknown>) => ReactNode;
}

/** Filters the bar shows: declared, not fixed by the page, and pickable when they are references. */
export function visibleFiltersOf(def: Pick<ResourceDef, 'fields'>, hiddenFields: ReadonlySet<string>): [string, FieldDef][] {
  return Object.entries(def.fields).filter(
    ([name, field]) => field.filter !== undefined && !hiddenFields.has(name) && (field.kind !== 'reference' || isPickable(field)),
  );
}

const SPAN = { xs: 24, sm: 12, lg: 8, xxl: 6 } as const;

/** antd's label: the colon and its margins, and the padding before the control. */
const LABEL_CHROME = 22;
const LABEL_WIDTH = { min: 64, max: 168 } as const;

/**
 * One label width for the whole bar (controls line up), wide enough for its longest label on one line
 * up to a cap; a longer one wraps between words, never inside one ("商户订/单号", "Recognised/at").
 */
export function filterLabelWidth(labels: readonly string[]): number {
  const widest = Math.max(0, ...labels.map((label) => textWidth(label) + LABEL_CHROME));
  return Math.min(LABEL_WIDTH.max, Math.max(LABEL_WIDTH.min, widest));
}

/** Whether a filter holds its default ("All", empty): an unset value and an empty one are the same. */
function isSameValue(value: unknown, initial: unknown): boolean {
  const blank = (one: unknown) => one === undefined || one === null || one === '' || (Array.isArray(one) && one.length === 0);
  if (blank(value) && blank(initial)) return true;
  return JSON.stringify(value) === JSON.stringify(initial);
}

export function FilterBar({ def, formName, hiddenFields, fixedValues, initialValues, maxPerRow = 4, onSearch, appliedValues, alignWith = [], renderExtra }: FilterBarProps) {
  const t = useT();
  const locale = useLocale();
  const [form] = Form.useForm<Record<string, unknown>>();
  // null until the user picks: expanded then exactly when a value set from outside sits beyond the first row.
  const [userExpanded, setExpanded] = useState<boolean | null>(null);
  const [appliedNames, setAppliedNames] = useState<readonly string[]>([]);
  const screens = Grid.useBreakpoint();
  const filters = useMemo(() => visibleFiltersOf(def, hiddenFields), [def, hiddenFields]);
  const withinReferences = useMemo(() => withinReferencesOf(def), [def]);
  const { schoolIdOf, clearDependents } = useSchoolScope(form, withinReferences, fixedValues);
  const { regionParents, clearRegionDependents } = useRegionParents(form, def.fields);
  const span = Math.max(24 / maxPerRow, screens.xxl ? SPAN.xxl : screens.lg ? SPAN.lg : screens.sm ? SPAN.sm : SPAN.xs);
  const perRow = 24 / span;
  // Collapsed, the first row holds as many filters as leave room for the buttons.
  const collapsedCount = Math.max(1, perRow - 1);
  const appliedRevision = appliedValues?.revision;
  useEffect(() => {
    if (!appliedValues || filters.length === 0) return;
    form.resetFields();
    form.setFieldsValue(appliedValues.values);
    // Values set from outside (a pending link, a shared address, a saved view): a filter the collapsed
    // bar would hide is shown, or the list looks filtered by nothing.
    setAppliedNames(filters.filter(([name]) => !isSameValue(appliedValues.values[name], initialValues[name])).map(([name]) => name));
    setExpanded(null);
    // Only a new revision is applied: the values object of one revision never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, appliedRevision]);

  if (filters.length === 0) return null;
  const canCollapse = filters.length > collapsedCount;
  const isExpanded = userExpanded ?? filters.slice(collapsedCount).some(([name]) => appliedNames.includes(name));
  const shownCount = isExpanded || !canCollapse ? filters.length : collapsedCount;

  return (
    <Form
      form={form}
      name={formName}
      className="resource-filter-bar"
      initialValues={initialValues}
      onFinish={onSearch}
      onValuesChange={(changed: Record<string, unknown>) => {
        clearDependents(changed);
        clearRegionDependents(changed);
      }}
      labelCol={{ flex: `${filterLabelWidth([...alignWith, ...filters.map(([, field]) => labelText(field.label, locale))])}px` }}
      labelWrap
      wrapperCol={{ flex: 1 }}
      autoComplete="off"
    >
      <Row gutter={16}>
        {filters.map(([name, field], position) => (
          <Col key={name} span={span} style={position >= shownCount ? { display: 'none' } : undefined}>
            <Form.Item name={name} label={labelText(field.label, locale)}>
              <FilterControl field={field} options={{ t, locale, schoolId: schoolIdOf(name), regionParents, isCollapsed: position >= shownCount }} />
            </Form.Item>
          </Col>
        ))}
        {/* Sized by its buttons, not by a span: when they do not fit beside the last filter (English
            labels, "My views"), the column moves to a line of its own instead of covering the filter. */}
        <Col flex="auto" className="resource-filter-buttons">
          <Space>
            <Button
              onClick={() => {
                form.resetFields();
                onSearch(form.getFieldsValue(true));
              }}
            >
              {t('resource.reset')}
            </Button>
            <Button type="primary" htmlType="submit">
              {t('resource.search')}
            </Button>
            {renderExtra?.(() => form.getFieldsValue(true) as Record<string, unknown>)}
            {canCollapse && (
              <Button type="link" onClick={() => setExpanded(!isExpanded)} icon={isExpanded ? <UpOutlined /> : <DownOutlined />} iconPlacement="end">
                {t(isExpanded ? 'resource.collapse' : 'resource.expand')}
              </Button>
            )}
          </Space>
        </Col>
      </Row>
    </Form>
  );
}
