/** The input of one declared field, in the add/edit form or an action form (the filter bar's: filter-control.tsx). */
import { formatDuration, type FieldDef } from '@campus/contract';
import { DatePicker, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { UploadField } from '../../components/upload-field';
import type { Locale, Translate } from '../../lib/i18n';
import { DATETIME_FORMAT } from '../shared/field-values';
import { boolLabels, labelText } from '../shared/labels';
import { PlaceholderField } from './placeholder-field';
import { ReferenceSelect, isPickable } from './reference-select';
import { RichTextField } from './rich-text-field';
import { PlacesSelect, RegionSelect, type RegionParents } from './region-select';

/** Enums with this many options or fewer are radio buttons in forms; longer lists are selects. */
const MAX_RADIO_OPTIONS = 3;

export interface ControlContext {
  t: Translate;
  locale: Locale;
  /** The address parts chosen so far in the same form (a city lists the chosen province's). */
  regionParents?: RegionParents;
}

/**
 * Props antd's Form.Item injects into its child control. The control is always rendered as the
 * direct child of a Form.Item, which passes value/onChange/id; they are spread, not named here.
 */
export type InjectedProps = Record<string, unknown>;

export interface FormControlOptions extends ControlContext {
  isEdit?: boolean;
  /** Display value of a reference on edit (`${field}Label`; a list for a multiple reference). */
  currentLabel?: string | readonly string[];
  /** For a reference under a chosen school; `null` = a school must be chosen first. */
  schoolId?: number | null;
  /** Bools as an approve/reject radio pair instead of a switch (action forms ask a question). */
  boolAsRadio?: boolean;
  /** A file field's stored upload, with the file as picked (the form grabs a video's poster from it). */
  onFileUploaded?: (file: File) => void;
}

const UPLOAD_KINDS = { video: 'file', audio: 'audio', package: 'package', document: 'document' } as const;

/** The control of a field in the add/edit or action form. */
export function FormControl({ field, options, ...injected }: { field: FieldDef; options: FormControlOptions } & InjectedProps) {
  const { t, locale } = options;
  const placeholder = t('resource.inputPlaceholder');
  switch (field.kind) {
    case 'textarea':
      if (field.rich) return <RichTextField {...injected} />;
      if (field.placeholders) return <PlaceholderField {...injected} placeholders={field.placeholders} max={field.max} />;
      return <Input.TextArea {...injected} rows={3} showCount maxLength={field.max} placeholder={placeholder} />;
    case 'number':
      // A length of time is read from its file, never typed: shown as a player shows it.
      if (field.unit === 'seconds') return <InputNumber {...injected} style={{ width: '100%' }} readOnly formatter={(value) => (value === undefined || value === '' ? '' : formatDuration(Number(value)))} />;
      return <InputNumber {...injected} style={{ width: '100%' }} min={field.min} max={field.max} precision={field.integer === false ? undefined : 0} />;
    case 'money':
      return <InputNumber {...injected} style={{ width: '100%' }} min={0} precision={2} step={1} suffix={t('resource.yuan')} />;
    case 'bool': {
      const { trueText, falseText } = boolLabels(field, locale);
      if (options.boolAsRadio) {
        return (
          <Radio.Group
            {...injected}
            optionType="button"
            options={[
              { value: true, label: trueText },
              { value: false, label: falseText },
            ]}
          />
        );
      }
      // A switch labelled by its own "on" value (直营) says yes or no: "off" reading 代理 beside 直营 contradicts the label.
      const isNamedByOn = trueText === labelText(field.label, locale);
      return <Switch {...injected} checkedChildren={isNamedByOn ? t('resource.yes') : trueText} unCheckedChildren={isNamedByOn ? t('resource.no') : falseText} />;
    }
    case 'enum': {
      const choices = field.options.map((option) => ({ value: option.value, label: labelText(option, locale) }));
      if (choices.length <= MAX_RADIO_OPTIONS) return <Radio.Group {...injected} optionType="button" options={choices} />;
      return <Select {...injected} options={choices} allowClear={!field.required} placeholder={t('resource.selectPlaceholder')} />;
    }
    case 'date':
      return <DatePicker {...injected} style={{ width: '100%' }} />;
    case 'datetime':
      return <DatePicker {...injected} style={{ width: '100%' }} showTime={{ format: 'HH:mm' }} format={DATETIME_FORMAT} />;
    case 'reference':
      if (!isPickable(field)) return <Input {...injected} disabled />;
      return (
        <ReferenceSelect
          {...injected}
          field={field}
          currentLabel={options.currentLabel}
          schoolId={options.schoolId ?? undefined}
          disabled={injected.disabled === true || options.schoolId === null}
          placeholder={options.schoolId === null ? t('resource.chooseSchoolFirst') : undefined}
        />
      );
    case 'password':
      return <Input.Password {...injected} autoComplete="new-password" placeholder={options.isEdit ? t('resource.passwordKeep') : placeholder} />;
    case 'image':
      return <UploadField {...injected} kind="image" />;
    case 'file':
      return <UploadField {...injected} kind={UPLOAD_KINDS[field.files ?? 'video']} onUploaded={options.onFileUploaded} />;
    case 'region':
      return <RegionSelect {...injected} part={field.part} parents={options.regionParents ?? {}} allowClear={!field.required} placeholder={t('resource.selectPlaceholder')} />;
    case 'places':
      return <PlacesSelect {...injected} level={field.level} parents={options.regionParents ?? {}} placeholder={t('resource.selectPlaceholder')} />;
    default:
      return <Input {...injected} placeholder={placeholder} />;
  }
}
