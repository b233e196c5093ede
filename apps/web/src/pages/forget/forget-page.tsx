import { MobileOutlined, UserOutlined } from '@ant-design/icons';
import { Form, Input } from 'antd';
import { Link, useNavigate } from 'react-router';
import { PublicPageFrame } from '../../components/public-page-frame';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { accountApi } from '../../lib/api/account';
import { applyFieldErrors } from '../../lib/form-errors';
import { useT } from '../../lib/i18n';
import { formRules } from '../../lib/validation-rules';
import { resetPathWith, type ResetPageState } from '../reset/reset-link';

interface ForgetForm {
  userName: string;
  phoneNum: string;
}

/** /forget: the account and its phone; sends the SMS code, then continues on /reset. */
export default function ForgetPage() {
  const t = useT();
  const rules = formRules(t);
  const navigate = useNavigate();
  const [form] = Form.useForm<ForgetForm>();

  const submit = usePreventDoubleClick(async (values: ForgetForm) => {
    const request = { userName: values.userName.trim(), phoneNum: values.phoneNum.trim() };
    try {
      await accountApi.sendResetSmsCode(request);
    } catch (error) {
      applyFieldErrors(form, error);
      return;
    }
    // The countdown carries on over there: the code just went out.
    const state: ResetPageState = { smsSentAt: Date.now() };
    navigate(resetPathWith(request), { state });
  });

  return (
    <PublicPageFrame title={t('forget.title')} subtitle={t('forget.hint')}>
      <Form form={form} layout="vertical" size="large" requiredMark={false} onFinish={submit.run}>
        <Form.Item name="userName" rules={[rules.required(t('field.userName'))]}>
          <Input prefix={<UserOutlined />} placeholder={t('field.userName')} autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="phoneNum" rules={[rules.required(t('field.phoneNum')), rules.phone]}>
          <Input prefix={<MobileOutlined />} placeholder={t('field.phoneNum')} maxLength={11} inputMode="numeric" />
        </Form.Item>
        <SubmitButton guard={submit} type="primary" htmlType="submit" block>
          {t('forget.next')}
        </SubmitButton>
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Link to="/login">{t('forget.backToLogin')}</Link>
        </div>
      </Form>
    </PublicPageFrame>
  );
}
