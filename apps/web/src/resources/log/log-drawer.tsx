/** The read-only record of a log row: every field; structured changes as a diff table. */
import type { OperationLogLabels, ResourceDef } from '@campus/contract';
import { Descriptions, Drawer, Typography } from 'antd';
import { useMemo } from 'react';
import { useLocale, useT } from '../../lib/i18n';
import { ChangesDiff } from '../record/changes-diff';
import { buildColumns } from '../list/columns';
import { labelText } from '../shared/labels';
import type { LogParts } from '../resource-overrides';
import type { ResourceRow } from '../shared/resource-api';

interface LogDrawerProps {
  def: ResourceDef;
  /** The family's own cells and hidden fields (resources/families.ts). */
  parts?: LogParts;
  row: ResourceRow | null;
  onClose: () => void;
}

export function LogDrawer({ def, parts, row, onClose }: LogDrawerProps) {
  const t = useT();
  const locale = useLocale();
  // Cells as the table draws them, for every field (columns hide some; the record shows all).
  const cells = useMemo(() => {
    const everyField = { ...def, fields: Object.fromEntries(Object.entries(def.fields).map(([name, field]) => [name, { ...field, list: true }])) };
    return new Map(buildColumns(everyField, { locale, hideAmountColumns: false }).map((column) => [column.key, column.render!]));
  }, [def, locale]);
  return (
    <Drawer open={row !== null} onClose={onClose} width={640} title={t('log.detailTitle', { family: labelText(def.label, locale) })} destroyOnHidden>
      {row && (
        <Descriptions column={1} bordered size="small">
          {Object.entries(def.fields).filter(([name]) => !parts?.recordHiddenFields?.includes(name)).map(([name, field]) => (
            <Descriptions.Item key={name} label={labelText(field.label, locale)}>
              {field.kind === 'json' ? (
                typeof row.family === 'string' && typeof row.action === 'string' ? (
                  <ChangesDiff family={row.family} action={row.action} changes={row[name]} labels={row.labels as OperationLogLabels | undefined} />
                ) : (
                  <Typography.Paragraph code style={{ whiteSpace: 'pre-wrap' }}>
                    {JSON.stringify(row[name], null, 2)}
                  </Typography.Paragraph>
                )
              ) : parts?.cells?.[name] ? (
                parts.cells[name](row, locale)
              ) : (
                (cells.get(name)?.(row[name], row, 0) as React.ReactNode)
              )}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </Drawer>
  );
}
