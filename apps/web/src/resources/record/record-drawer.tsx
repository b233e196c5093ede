/** Add and edit in a drawer: a form built from the declaration, server field errors on the fields. */
import { API_PATHS, type FieldDef, type ResourceDef, type UploadAnswer } from '@campus/contract';
import { App, Button, Col, Drawer, Form, Row, Space, Tabs, type TabsProps } from 'antd';
import { useId, useMemo, useState } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { useWindowWidth } from '../../hooks/use-window-width';
import { applyFieldErrors } from '../../lib/form-errors';
import { useLocale, useT } from '../../lib/i18n';
import { RequestError } from '../../lib/request';
import { showToast } from '../../lib/toast';
import { uploadFiles } from '../../lib/upload';
import { grabPosterFrame } from '../../lib/video-poster';
import { FormControl } from '../form/field-control';
import { fieldRules, ruleDependencies } from '../form/field-rules';
import { buildAddBody, changedFields, defaultFormValues, rowToFormValues, writableFieldsOf, type FormValues } from '../form/form-values';
import { labelText } from '../shared/labels';
import { LinesEditor } from '../form/lines-editor';
import { linesToForm } from '../form/line-values';
import { isPickable } from '../form/reference-select';
import { useRegionParents } from '../form/region-select';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';
import { StateHistorySection } from './state-timeline';
import { useRowWithLines } from './use-row-with-lines';
import { useSchoolScope, withinReferencesOf } from '../shared/use-school-scope';

export type DrawerTarget = { mode: 'add' } | { mode: 'edit'; row: ResourceRow } | { mode: 'view'; row: ResourceRow };

/** HTTP status of an Update made against a stale `version`. */
const CONFLICT_STATUS = 409;

interface RecordDrawerProps {
  def: ResourceDef;
  api: ResourceApi;
  target: Exclude<DrawerTarget, { mode: 'view' }>;
  /** Fields the page fixes (hidden here); `presetValues` carries their values into an Add. */
  hiddenFields: ReadonlySet<string>;
  presetValues: Readonly<Record<string, string | number | boolean>>;
  /** Tabs after the record's own form, e.g. the child families of the row being edited. */
  extraTabs?: TabsProps['items'];
  onClose: () => void;
  onSaved: () => void;
}

/** A row's `${field}Label`: a name, or the names of a multiple reference. */
const labelOf = (label: unknown): string | string[] | undefined =>
  typeof label === 'string' ? label : Array.isArray(label) ? label.map(String) : undefined;

/** Long inputs take the drawer's full width; the rest sit two to a row. */
const isWide = (field: FieldDef) => field.kind === 'textarea' || field.kind === 'image' || field.kind === 'file' || (field.kind === 'reference' && field.multiple === true);

export function RecordDrawer({ def, api, target, hiddenFields, presetValues, extraTabs = [], onClose, onSaved }: RecordDrawerProps) {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const formId = useId();
  const windowWidth = useWindowWidth();
  const [form] = Form.useForm<FormValues>();
  const isEdit = target.mode === 'edit';
  // The row being edited; replaced by the stored one when a conflict is reloaded.
  const [row, setRow] = useState<ResourceRow | null>(isEdit ? target.row : null);
  // A reference without an Options call to pick from is left to the server's defaults.
  const entries = useMemo(
    () => writableFieldsOf(def.fields, hiddenFields).filter(([, field]) => field.kind !== 'reference' || isPickable(field)),
    [def, hiddenFields],
  );
  const initialValues = useMemo(() => (row ? rowToFormValues(entries, row) : defaultFormValues(entries)), [entries, row]);
  const isReadingLines = useRowWithLines(def, api, row, (fresh) => {
    setRow(fresh);
    form.setFieldsValue(rowToFormValues(entries, fresh));
  });
  const withinReferences = useMemo(() => withinReferencesOf(def), [def]);
  const { schoolIdOf, clearDependents } = useSchoolScope(form, withinReferences, presetValues);
  const { regionParents, clearRegionDependents } = useRegionParents(form, def.fields);

  // A video's poster: a frame the browser takes from the file just uploaded, stored as an image upload.
  const grabPoster = async (posterField: string, file: File) => {
    showToast('info', t('upload.posterGrabbing'));
    try {
      const frame = await grabPosterFrame(file);
      const name = `${file.name.replace(/\.[^.]+$/, '')}-poster.jpg`;
      const [stored] = await uploadFiles<UploadAnswer>(API_PATHS.uploadImages, [new File([frame], name, { type: 'image/jpeg' })]);
      if (stored) form.setFieldValue(posterField, stored.url);
    } catch {
      showToast('warning', t('upload.posterFailed'));
    }
  };

  const reload = async (id: number) => {
    const fresh = await api.get(id);
    setRow(fresh);
    form.setFieldsValue(rowToFormValues(entries, fresh));
    showToast('info', t('resource.reloaded'));
  };

  const save = usePreventDoubleClick(async (values: FormValues) => {
    try {
      if (row) {
        const changes = changedFields(entries, row, values);
        if (Object.keys(changes).length === 0) {
          showToast('info', t('resource.unchanged'));
          return;
        }
        await api.update({ id: row.id, version: row.version, ...changes });
        showToast('success', t('resource.updated'));
      } else {
        await api.add({ ...buildAddBody(entries, values), ...presetValues });
        showToast('success', t('resource.added'));
      }
      onSaved();
    } catch (error) {
      if (row && error instanceof RequestError && error.status === CONFLICT_STATUS) {
        // The request client has shown the server's message; offer the fresh row instead of a dead end.
        modal.confirm({
          title: t('resource.conflictTitle'),
          content: t('resource.conflictContent'),
          okText: t('resource.reload'),
          cancelText: t('common.cancel'),
          onOk: () => reload(row.id),
        });
        return;
      }
      applyFieldErrors(form, error);
    }
  });

  // A half-filled form is not thrown away by a stray click on the mask, the close icon or Cancel.
  const requestClose = () => {
    if (!form.isFieldsTouched()) return onClose();
    modal.confirm({
      title: t('resource.discardTitle'),
      content: t('resource.discardContent'),
      okText: t('resource.discard'),
      okType: 'danger',
      cancelText: t('resource.keepEditing'),
      onOk: onClose,
    });
  };

  const family = labelText(def.label, locale);
  const hasTabs = extraTabs.length > 0;
  const recordForm = (
    <>
      <Form
        id={formId}
        name={`record-${def.name}`}
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onFinish={save.run}
        onValuesChange={(changed: FormValues) => {
          clearDependents(changed);
          clearRegionDependents(changed);
        }}
        autoComplete="off"
        scrollToFirstError
      >
        <Row gutter={16}>
          {entries.filter(([, field]) => field.kind !== 'lines').map(([name, field]) => (
            <Col key={name} xs={24} md={isWide(field) ? 24 : 12}>
              <Form.Item
                name={name}
                label={labelText(field.label, locale)}
                rules={fieldRules(field, { t, locale, isEdit, fields: def.fields })}
                dependencies={ruleDependencies(field)}
                valuePropName={field.kind === 'bool' ? 'checked' : 'value'}
                tooltip={field.help ? labelText(field.help, locale) : undefined}
              >
                <FormControl
                  field={field}
                  disabled={isEdit && field.fixed === true}
                  options={{
                    t,
                    locale,
                    isEdit,
                    schoolId: schoolIdOf(name),
                    regionParents,
                    currentLabel: labelOf(row?.[`${name}Label`]),
                    onFileUploaded: field.kind === 'file' && field.poster ? (file) => void grabPoster(field.poster!, file) : undefined,
                  }}
                />
              </Form.Item>
            </Col>
          ))}
        </Row>
        {/* An order's items below the main fields, full width. */}
        {entries.map(([name, field]) =>
          field.kind === 'lines' ? <LinesEditor key={name} name={name} field={field} storedLines={linesToForm(field, row?.[name])} loading={isReadingLines} /> : null,
        )}
      </Form>
      {row && def.workflow && <StateHistorySection def={def} api={api} rowId={row.id} />}
    </>
  );
  return (
    <Drawer
      open
      title={t(isEdit ? 'resource.editTitle' : 'resource.addTitle', { family })}
      size={Math.min(hasTabs ? 1100 : 720, windowWidth - 48)}
      destroyOnHidden
      onClose={requestClose}
      footer={
        <Space style={{ float: 'right' }}>
          <Button onClick={requestClose}>{t('common.cancel')}</Button>
          <SubmitButton guard={save} type="primary" htmlType="submit" form={formId}>
            {t('common.save')}
          </SubmitButton>
        </Space>
      }
    >
      {hasTabs ? <Tabs items={[{ key: 'record', label: t('resource.details'), children: recordForm }, ...extraTabs]} /> : recordForm}
    </Drawer>
  );
}
