/** The SMS code, new password and confirmation items the password forms of personal information share. */
import { Form, Input, Space } from 'antd';
import { useId } from 'react';
import { useT } from '../lib/i18n';
import { formRules } from '../lib/validation-rules';
import { SmsCodeButton } from './sms-code-button';

/**
 * The 6-digit SMS code with its send button (and countdown). Its input gets an id of its own: two
 * forms on one page (personal information) both hold a `smsCode`, and the label must name its own.
 */
export function SmsCodeField({ send }: { send: () => Promise<unknown> }) {
  const t = useT();
  const rules = formRules(t);
  const inputId = useId();
  return (
    <Form.Item label={t('field.smsCode')} htmlFor={inputId} required>
      <Space.Compact block>
        <Form.Item name="smsCode" noStyle rules={[rules.required(t('field.smsCode')), rules.smsCode]}>
          <Input id={inputId} maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
        </Form.Item>
        <SmsCodeButton send={send} />
      </Space.Compact>
    </Form.Item>
  );
}

interface NewPasswordFieldsProps {
  name: string;
  label: string;
  confirmName: string;
  confirmLabel: string;
  /** A field the new password must differ from (the old password). */
  differentFrom?: string;
}

/** A strong new password and its confirmation. */
export function NewPasswordFields({ name, label, confirmName, confirmLabel, differentFrom }: NewPasswordFieldsProps) {
  const t = useT();
  const rules = formRules(t);
  return (
    <>
      <Form.Item
        name={name}
        label={label}
        dependencies={differentFrom ? [differentFrom] : undefined}
        rules={[rules.required(label), rules.strongPassword, ...(differentFrom ? [rules.differentFrom(differentFrom)] : [])]}
        hasFeedback
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name={confirmName} label={confirmLabel} dependencies={[name]} rules={[rules.required(confirmLabel), rules.sameAs(name)]} hasFeedback>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
