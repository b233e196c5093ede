/**
 * A text with `{placeholders}` (a notice template): the declared names to insert, the unknown ones
 * flagged as typed (the server refuses them too), and a preview with each filled by its sample.
 */
import { fillPlaceholders, unknownPlaceholders, type PlaceholderDef } from '@campus/contract';
import { Input, Tag, Typography } from 'antd';
import { useLocale, useT } from '../../lib/i18n';
import { labelText } from '../shared/labels';

interface PlaceholderFieldProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  placeholders: readonly PlaceholderDef[];
  max?: number;
}

export function PlaceholderField({ id, value, onChange, placeholders, max }: PlaceholderFieldProps) {
  const t = useT();
  const locale = useLocale();
  const text = value ?? '';
  const unknown = unknownPlaceholders(text, placeholders.map((placeholder) => placeholder.name));
  return (
    <div>
      <Input.TextArea id={id} value={text} onChange={(event) => onChange?.(event.target.value)} rows={max !== undefined && max <= 100 ? 1 : 3} showCount maxLength={max} status={unknown.length > 0 ? 'error' : undefined} />
      <div style={{ marginTop: 22, display: 'flex', flexWrap: 'wrap', gap: 4 }}>
        {placeholders.map((placeholder) => (
          <Tag key={placeholder.name} color="blue" style={{ cursor: 'pointer' }} onClick={() => onChange?.(`${text}{${placeholder.name}}`)}>
            {labelText(placeholder.label, locale)} {`{${placeholder.name}}`}
          </Tag>
        ))}
      </div>
      {unknown.length > 0 ? <Typography.Text type="danger">{t('placeholder.unknown', { names: unknown.join(', ') })}</Typography.Text> : null}
      {text ? (
        <div className="placeholder-preview" data-testid="placeholder-preview" style={{ marginTop: 6, padding: '6px 10px', background: '#f6f8fa', borderRadius: 4 }}>
          <Typography.Text type="secondary">{t('placeholder.preview')}：</Typography.Text>
          <Typography.Text>{fillPlaceholders(text, placeholders)}</Typography.Text>
        </div>
      ) : null}
    </div>
  );
}
