/**
 * The lines a family's server writes (a `lines` field declared readOnly, e.g. an upgrade plan's
 * devices and their progress) as plain tables: read by Get, since Search leaves lines out.
 */
import type { ResourceDef } from '@campus/contract';
import { Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useVisibilityProbes } from '../../hooks/use-visibility-probes';
import { useLocale } from '../../lib/i18n';
import { buildFieldColumns } from '../list/columns';
import { labelText } from '../shared/labels';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';

/** The family's read-only lines fields, by name. */
export function readOnlyLinesOf(def: ResourceDef): [string, Extract<ResourceDef['fields'][string], { kind: 'lines' }>][] {
  return Object.entries(def.fields).flatMap(([name, field]) => (field.kind === 'lines' && field.readOnly ? [[name, field] as const] : []));
}

export function ReadOnlyLines({ def, api, rowId }: { def: ResourceDef; api: ResourceApi; rowId: number }) {
  const locale = useLocale();
  const hideAmountColumns = useVisibilityProbes()?.hideAmountColumns === true;
  const [row, setRow] = useState<ResourceRow | null>(null);
  const [isLoading, setIsLoading] = useState(true);
  useEffect(() => {
    let isCurrent = true;
    setIsLoading(true);
    api
      .get(rowId)
      .then((fresh) => isCurrent && setRow(fresh))
      // The request client has shown the failure; the tables stay empty.
      .catch(() => undefined)
      .finally(() => isCurrent && setIsLoading(false));
    return () => {
      isCurrent = false;
    };
  }, [api, rowId]);
  return (
    <>
      {readOnlyLinesOf(def).map(([name, field]) => {
        const lines = Array.isArray(row?.[name]) ? (row[name] as ResourceRow[]) : [];
        return (
          <section key={name} className="read-only-lines" data-testid={`lines-${name}`}>
            <Typography.Title level={5}>{labelText(field.label, locale)}</Typography.Title>
            <Table<ResourceRow>
              size="small"
              rowKey={(line, index) => String(line.id ?? index)}
              loading={isLoading}
              columns={buildFieldColumns(field.fields, { locale, hideAmountColumns })}
              dataSource={lines}
              pagination={lines.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
              scroll={{ x: 'max-content' }}
            />
          </section>
        );
      })}
    </>
  );
}
