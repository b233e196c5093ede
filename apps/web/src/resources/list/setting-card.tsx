/**
 * The card of a declared platform setting (SettingDef) above its family's page: everyone with the
 * page reads it; company users holding the declared button change it (the server checks both and the
 * bounds). A yes/no setting is a switch saved at once; numbers are inputs saved by one button.
 */
import type { SettingDef, SettingFieldDef, SettingValue } from '@campus/contract';
import { Button, Card, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useLabelText } from '../../hooks/use-label-text';
import { usePlatformSetting } from '../../hooks/use-platform-setting';
import { useT } from '../../lib/i18n';
import { InputNumber } from '../form/deferred-inputs';

type NumberField = Extract<SettingFieldDef, { kind: 'number' }>;

export function SettingCard({ setting, frame }: { setting: SettingDef; frame: string }) {
  const t = useT();
  const text = useLabelText();
  const current = usePlatformSetting<SettingValue>({ setting, frame });
  const [draft, setDraft] = useState<SettingValue>({});
  const fields = Object.entries(setting.fields);
  const saved = current.value;
  const shown = saved ? { ...saved, ...draft } : undefined;
  const isChanged = !!saved && fields.some(([name]) => draft[name] !== undefined && draft[name] !== saved[name]);
  const save = async (value: SettingValue) => {
    if (await current.save(value)) setDraft({});
  };
  const numberText = (field: NumberField, value: unknown) =>
    typeof value === 'number' ? `${value.toFixed(field.precision)}${field.unit ? ` ${text(field.unit)}` : ''}` : '-';
  const isSwitchOnly = fields.every(([, field]) => field.kind === 'bool');
  return (
    <Card size="small" data-testid={`setting-${setting.name}`}>
      <Space wrap size="middle">
        {fields.map(([name, field]) => {
          const label = text(field.label);
          if (field.kind === 'bool') {
            return (
              <Space key={name} size="small">
                <Typography.Text strong>{label}</Typography.Text>
                <Switch
                  aria-label={label}
                  checked={shown?.[name] === true}
                  loading={current.isLoading || current.isSaving}
                  disabled={!current.canEdit}
                  onChange={(checked) => shown && void save({ ...shown, [name]: checked })}
                />
              </Space>
            );
          }
          return (
            <Space key={name} size="small">
              <Typography.Text strong>{label}</Typography.Text>
              {current.canEdit ? (
                <InputNumber
                  aria-label={label}
                  min={field.min}
                  max={field.max}
                  step={field.step ?? 1}
                  precision={field.precision}
                  addonAfter={field.unit ? text(field.unit) : undefined}
                  value={typeof shown?.[name] === 'number' ? (shown[name] as number) : null}
                  onChange={(value) => value !== null && setDraft((previous) => ({ ...previous, [name]: value }))}
                />
              ) : (
                <Typography.Text>{numberText(field, shown?.[name])}</Typography.Text>
              )}
            </Space>
          );
        })}
        {current.canEdit && !isSwitchOnly && (
          <Button type="primary" loading={current.isSaving} disabled={!isChanged} onClick={() => shown && void save(shown)}>
            {t('common.save')}
          </Button>
        )}
        <Typography.Text type="secondary">{text(setting.hint)}</Typography.Text>
      </Space>
    </Card>
  );
}
