/** A declared row action with fields: a modal form, sent as POST /api/{Family}/{verb} `{ id, ...fields }`. */
import type { ActionDef } from '@campus/contract';
import { Button, Form, Modal, Space } from 'antd';
import { useId, useMemo } from 'react';
import { SubmitButton } from '../components/submit-button';
import { usePreventDoubleClick } from '../hooks/use-prevent-double-click';
import { applyFieldErrors } from '../lib/form-errors';
import { useLocale, useT } from '../lib/i18n';
import { showToast } from '../lib/toast';
import { FormControl } from './field-control';
import { fieldRules } from './field-rules';
import { buildAddBody, rowToFormValues, type FieldEntry, type FormValues } from './form-values';
import { labelText } from './labels';
import type { ResourceApi, ResourceRow } from './resource-api';

interface ActionModalProps {
  api: ResourceApi;
  action: ActionDef;
  row: ResourceRow;
  /** Names the row in the title (the family's titleField). */
  rowTitle: string;
  onClose: () => void;
  onDone: () => void;
}

export function ActionModal({ api, action, row, rowTitle, onClose, onDone }: ActionModalProps) {
  const t = useT();
  const locale = useLocale();
  const formId = useId();
  const [form] = Form.useForm<FormValues>();
  const entries = useMemo<FieldEntry[]>(() => Object.entries(action.fields ?? {}), [action]);
  // Fields named like a row field start from the row's value (e.g. the current admin account).
  const initialValues = useMemo(() => rowToFormValues(entries, row), [entries, row]);
  const actionName = labelText(action.label, locale);

  const submit = usePreventDoubleClick(async (values: FormValues) => {
    try {
      await api.runAction(action.verb, { id: row.id, ...buildAddBody(entries, values) });
      showToast('success', t('resource.actionDone', { action: actionName }));
      onDone();
    } catch (error) {
      applyFieldErrors(form, error);
    }
  });

  return (
    <Modal
      open
      title={`${actionName} · ${rowTitle}`}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <SubmitButton guard={submit} type="primary" htmlType="submit" form={formId}>
            {t('common.ok')}
          </SubmitButton>
        </Space>
      }
    >
      <Form id={formId} name={`action-${action.verb}`} form={form} layout="vertical" initialValues={initialValues} onFinish={submit.run} autoComplete="off">
        {entries.map(([name, field]) => (
          <Form.Item key={name} name={name} label={labelText(field.label, locale)} rules={fieldRules(field, { t, locale })}>
            <FormControl field={field} options={{ t, locale, boolAsRadio: true }} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
