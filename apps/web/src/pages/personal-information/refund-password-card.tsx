import { Card, Form, Input, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { NewPasswordFields, SmsCodeField } from '../../components/new-password-fields';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { userApi } from '../../lib/api/user';
import { applyFieldErrors } from '../../lib/form-errors';
import { useT } from '../../lib/i18n';
import { hashPassword } from '../../lib/md5';
import { showToast } from '../../lib/toast';
import { formRules } from '../../lib/validation-rules';

interface RefundPasswordForm {
  loginPassword: string;
  smsCode: string;
  refundPassword: string;
  confirmRefundPassword: string;
}

/** The refund password (confirms refunds): set or change it with the login password and an SMS code. */
export function RefundPasswordCard({ hasRefundPassword, queryKey }: { hasRefundPassword: boolean | undefined; queryKey: readonly unknown[] }) {
  const t = useT();
  const rules = formRules(t);
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RefundPasswordForm>();

  const submit = usePreventDoubleClick(async (values: RefundPasswordForm) => {
    try {
      await userApi.updateRefundPassword({
        loginPassword: hashPassword(values.loginPassword),
        refundPassword: hashPassword(values.refundPassword),
        smsCode: values.smsCode.trim(),
      });
      showToast('success', t('refund.saved'));
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      applyFieldErrors(form, error);
    }
  });

  const title = hasRefundPassword ? t('refund.titleChange') : t('refund.titleSet');
  return (
    <Card
      title={title}
      extra={hasRefundPassword === undefined ? null : <Tag color={hasRefundPassword ? 'success' : 'default'}>{hasRefundPassword ? t('refund.isSet') : t('refund.notSet')}</Tag>}
    >
      <p className="card-hint card-hint-block">{t('refund.hint')}</p>
      <Form form={form} layout="vertical" onFinish={submit.run} autoComplete="off">
        <Form.Item name="loginPassword" label={t('field.loginPassword')} rules={[rules.required(t('field.loginPassword'))]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <SmsCodeField send={() => userApi.sendSmsCode('refundPassword')} />
        <NewPasswordFields
          name="refundPassword"
          label={t('field.refundPassword')}
          confirmName="confirmRefundPassword"
          confirmLabel={t('field.confirmRefundPassword')}
        />
        <SubmitButton guard={submit} type="primary" htmlType="submit">
          {t('refund.submit')}
        </SubmitButton>
      </Form>
    </Card>
  );
}
