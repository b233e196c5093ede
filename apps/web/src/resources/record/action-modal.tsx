/**
 * A declared row action or workflow transition with fields: a modal form, sent as POST
 * /api/{Family}/{verb} `{ id, ...fields }`. A transition also sends the version the row was read at
 * and, when it asks again for the refund password, its MD5 as `reauthPassword`.
 */
import type { ActionDef, TransitionDef } from '@campus/contract';
import { Button, Form, Input, Modal, Space } from 'antd';
import { useId, useMemo } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { applyFieldErrors } from '../../lib/form-errors';
import { hashPassword } from '../../lib/md5';
import { useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import { FormControl } from '../form/field-control';
import { fieldRules } from '../form/field-rules';
import { buildAddBody, defaultFormValues, rowToFormValues, type FieldEntry, type FormValues } from '../form/form-values';
import { labelText } from '../shared/labels';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';

interface ActionModalProps {
  api: ResourceApi;
  action: ActionDef | TransitionDef;
  row: ResourceRow;
  /** Names the row in the title (the family's titleField). */
  rowTitle: string;
  onClose: () => void;
  /** Called with the action's answer (a value it reveals once, for instance). */
  onDone: (answer: unknown) => void;
}

export function ActionModal({ api, action, row, rowTitle, onClose, onDone }: ActionModalProps) {
  const t = useT();
  const locale = useLocale();
  const formId = useId();
  const [form] = Form.useForm<FormValues>();
  const entries = useMemo<FieldEntry[]>(() => Object.entries(action.fields ?? {}), [action]);
  // Fields named like a row field start from the row's value (e.g. the current admin account); the
  // others from their declared default (a shipment's 12 months of warranty).
  const initialValues = useMemo(() => {
    const fromRow = entries.filter(([name]) => row[name] !== undefined && row[name] !== null);
    return { ...defaultFormValues(entries), ...rowToFormValues(fromRow, row) };
  }, [entries, row]);
  const actionName = labelText(action.label, locale);
  const isTransition = 'from' in action;
  // Transitions and actions alike (a refund of a payment, of a mall order's line) may ask the refund password again.
  const reauth = action.reauth === 'refundPassword';

  const submit = usePreventDoubleClick(async (values: FormValues) => {
    try {
      const { reauthPassword, ...fieldValues } = values;
      const transitionExtras = isTransition ? { version: row.version } : {};
      const reauthExtras = reauth ? { reauthPassword: hashPassword(String(reauthPassword)) } : {};
      const answer = await api.runAction(action.verb, { id: row.id, ...buildAddBody(entries, fieldValues), ...transitionExtras, ...reauthExtras });
      showToast('success', t('resource.actionDone', { action: actionName }));
      onDone(answer);
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
          <SubmitButton guard={submit} type="primary" danger={isTransition && action.danger === true} htmlType="submit" form={formId}>
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
        {reauth && (
          <Form.Item name="reauthPassword" label={t('workflow.refundPassword')} rules={[{ required: true, message: t('workflow.refundPasswordRequired') }]}>
            <Input.Password autoComplete="off" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
