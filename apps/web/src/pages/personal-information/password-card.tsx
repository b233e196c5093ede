import { Card, Form, Input } from 'antd';
import { NewPasswordFields, SmsCodeField } from '../../components/new-password-fields';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { userApi } from '../../lib/api/user';
import { applyFieldErrors } from '../../lib/form-errors';
import { useT } from '../../lib/i18n';
import { hashPassword } from '../../lib/md5';
import { showToast } from '../../lib/toast';
import { formRules } from '../../lib/validation-rules';

interface PasswordForm {
  oldPassword: string;
  smsCode: string;
  newPassword: string;
  confirmPassword: string;
}

/** Login password change: old password + SMS code; every password travels as MD5. */
export function PasswordCard() {
  const t = useT();
  const rules = formRules(t);
  const [form] = Form.useForm<PasswordForm>();

  const submit = usePreventDoubleClick(async (values: PasswordForm) => {
    try {
      await userApi.updateLoginUserPassword({
        oldPassword: hashPassword(values.oldPassword),
        newPassword: hashPassword(values.newPassword),
        smsCode: values.smsCode.trim(),
      });
      // The server ends the other sessions; this one stays.
      showToast('success', t('password.changed'));
      form.resetFields();
    } catch (error) {
      applyFieldErrors(form, error);
    }
  });

  return (
    <Card title={t('password.title')} extra={<span className="card-hint">{t('password.hint')}</span>}>
      <Form form={form} layout="vertical" onFinish={submit.run} autoComplete="off">
        <Form.Item name="oldPassword" label={t('field.oldPassword')} rules={[rules.required(t('field.oldPassword'))]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <SmsCodeField send={() => userApi.sendSmsCode('password')} />
        <NewPasswordFields
          name="newPassword"
          label={t('field.newPassword')}
          confirmName="confirmPassword"
          confirmLabel={t('field.confirmPassword')}
          differentFrom="oldPassword"
        />
        <SubmitButton guard={submit} type="primary" htmlType="submit">
          {t('password.submit')}
        </SubmitButton>
      </Form>
    </Card>
  );
}
