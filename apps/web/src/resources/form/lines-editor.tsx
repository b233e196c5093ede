/**
 * The lines of a `lines` field (an order's items) inside the record form: an editable table, one row
 * per line with the controls of the line's declared fields, add and remove buttons, the computed
 * amounts and total. Server field errors such as `items.2.quantity` land on that cell (Form.List).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { boundFields, formatServerMessage, lineRuleProblems } from '@campus/contract';
import { Button, Form, Table, Typography, type FormRule, type TableColumnsType } from 'antd';
import type { FormListFieldData } from 'antd/es/form/FormList';
import { useVisibilityProbes } from '../../hooks/use-visibility-probes';
import { useLocale, useT, type Locale } from '../../lib/i18n';
import { FormControl } from './field-control';
import { fieldRules } from './field-rules';
import { formatMoney } from '../shared/field-values';
import { labelText } from '../shared/labels';
import { editableLineFields, lineAmount, linesToWire, knownUnitPrice, type FormLine, type LinesField } from './line-values';
import './lines-editor.css';

export interface LinesEditorProps {
  /** The field's name in the form (the wire name, e.g. `items`). */
  name: string;
  field: LinesField;
  /** The lines as stored (form lines of the row read by Get): their prices and labels are shown until the server answers new ones. */
  storedLines: readonly FormLine[];
  /** The stored lines are still being read. */
  loading?: boolean;
}

/** A new line with the declared starting values (quantity 1). */
function newLine(field: LinesField): FormLine {
  return Object.fromEntries(editableLineFields(field).flatMap(([name, f]) => (f.defaultValue === undefined ? [] : [[name, f.defaultValue]])));
}

/** The declared rules across lines (`rules`: distinct fields, sums) on the cell they name, as the server checks them. */
function acrossLinesRule(name: string, field: LinesField, index: number, lineName: string, locale: Locale): FormRule {
  return ({ getFieldValue }) => ({
    validator() {
      // Wire values, as the server compares them: dates as YYYY-MM-DD, money in cents.
      // The parent row's fields the lines' bounds read (an NVR's channel count).
      const bounds = Object.values(field.fields).flatMap(boundFields);
      const row = Object.fromEntries(bounds.map((other) => [other, getFieldValue(other) as unknown]));
      const problem = lineRuleProblems(field, linesToWire(field, getFieldValue(name)), row).find((one) => one.index === index && one.field === lineName);
      return problem ? Promise.reject(new Error(formatServerMessage(problem.message.key, problem.message.params, locale === 'en' ? 'en' : 'zh'))) : Promise.resolve();
    },
  });
}

const money = (cents: number | undefined, pending: string) => (cents === undefined ? <Typography.Text type="secondary">{pending}</Typography.Text> : formatMoney(cents));

export function LinesEditor({ name, field, storedLines, loading = false }: LinesEditorProps) {
  const t = useT();
  const locale = useLocale();
  const form = Form.useFormInstance();
  const lines = (Form.useWatch(name, form) ?? []) as FormLine[];
  const hidesAmounts = useVisibilityProbes()?.hideAmountColumns === true;
  const amount = hidesAmounts ? undefined : field.amount;
  const pending = t('lines.computedOnSave');
  const minimum = field.min ?? 0;

  const amounts = lines.map((line) => (line ? lineAmount(field, line, storedLines) : undefined));
  const total = amounts.every((a) => a !== undefined) ? amounts.reduce<number>((sum, a) => sum + (a ?? 0), 0) : undefined;

  return (
    <Form.List
      name={name}
      rules={[
        {
          validator: async (_, value: unknown[] | undefined) => {
            if ((value?.length ?? 0) < minimum) throw new Error(t('lines.atLeast', { min: minimum }));
          },
        },
      ]}
    >
      {(rows, { add, remove }, { errors }) => {
        const columns: TableColumnsType<FormListFieldData> = [
          { key: 'lineNo', title: '#', width: 48, render: (_, _row, index) => index + 1 },
          ...editableLineFields(field).map(([lineName, lineField]) => ({
            key: lineName,
            title: labelText(lineField.label, locale),
            // A picker takes the room left over (its names are long); numbers need little.
            width: lineField.kind === 'number' || lineField.kind === 'money' ? 128 : undefined,
            className: lineField.kind === 'reference' ? 'lines-editor-picker' : undefined,
            render: (_: unknown, row: FormListFieldData) => (
              <Form.Item name={[row.name, lineName]} rules={[...fieldRules(lineField, { t, locale }), acrossLinesRule(name, field, row.name, lineName, locale)]} style={{ marginBottom: 0 }}>
                <FormControl field={lineField} options={{ t, locale, currentLabel: storedLabel(storedLines, lineName, lines[row.name]?.[lineName]) }} />
              </Form.Item>
            ),
          })),
          ...(amount
            ? [
                {
                  key: amount.unitPrice,
                  title: labelText(field.fields[amount.unitPrice]!.label, locale),
                  width: 120,
                  align: 'right' as const,
                  render: (_: unknown, row: FormListFieldData) => money(lines[row.name] ? knownUnitPrice(field, lines[row.name]!, storedLines) : undefined, pending),
                },
                {
                  key: amount.into,
                  title: labelText(field.fields[amount.into]!.label, locale),
                  width: 120,
                  align: 'right' as const,
                  render: (_: unknown, row: FormListFieldData) => money(amounts[row.name], pending),
                },
              ]
            : []),
          {
            key: 'remove',
            width: 56,
            align: 'center',
            render: (_, row) => (
              <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('lines.remove', { line: row.name + 1 })} onClick={() => remove(row.name)} />
            ),
          },
        ];
        return (
          <Form.Item label={labelText(field.label, locale)} required={field.required} style={{ marginBottom: 16 }}>
            <Table<FormListFieldData>
              className="lines-editor"
              size="small"
              rowKey="key"
              columns={columns}
              dataSource={rows}
              pagination={false}
              loading={loading}
              locale={{ emptyText: t('lines.empty') }}
              summary={() =>
                amount ? (
                  <Table.Summary.Row>
                    <Table.Summary.Cell index={0} colSpan={columns.length - 2}>
                      {t('lines.total')}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={1} align="right">
                      <Typography.Text strong>{money(total, pending)}</Typography.Text>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={2} />
                  </Table.Summary.Row>
                ) : undefined
              }
            />
            <Form.ErrorList errors={errors} />
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              style={{ marginTop: 8 }}
              disabled={loading || (field.max !== undefined && rows.length >= field.max)}
              onClick={() => add(newLine(field))}
            >
              {t('lines.add')}
            </Button>
          </Form.Item>
        );
      }}
    </Form.List>
  );
}

/**
 * The display value of a line's reference as Get answered it (`${field}Label`), for the picker to show
 * before its options load; form values hold only the fields the table edits.
 */
function storedLabel(storedLines: readonly FormLine[], field: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const label = storedLines.find((line) => String(line[field]) === String(value))?.[`${field}Label`];
  return typeof label === 'string' ? label : undefined;
}
