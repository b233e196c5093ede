import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Form, Input, Space } from 'antd';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PublicPageFrame } from '../../components/public-page-frame';
import { SmsCodeButton } from '../../components/sms-code-button';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { accountApi } from '../../lib/api/account';
import { applyFieldErrors } from '../../lib/form-errors';
import { useT } from '../../lib/i18n';
import { hashPassword } from '../../lib/md5';
import { formRules } from '../../lib/validation-rules';
import { readResetPageState } from './reset-link';

interface ResetForm {
  userName: string;
  phoneNum: string;
  smsCode: string;
  newPassword: string;
  confirmPassword: string;
}

/** /reset: SMS-verified password reset; also where code 601 sends an account that must change its password. */
export default function ResetPage() {
  const t = useT();
  const rules = formRules(t);
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const pageState = readResetPageState(location.state);
  const mustChange = params.get('reason') === 'mustChangePassword';
  const [form] = Form.useForm<ResetForm>();

  const sendCode = async () => {
    const { userName, phoneNum } = await form.validateFields(['userName', 'phoneNum']);
    await accountApi.sendResetSmsCode({ userName: userName.trim(), phoneNum: phoneNum.trim() }).catch((error: unknown) => {
      applyFieldErrors(form, error);
      throw error;
    });
  };

  const submit = usePreventDoubleClick(async (values: ResetForm) => {
    try {
      await accountApi.resetPassword({
        userName: values.userName.trim(),
        phoneNum: values.phoneNum.trim(),
        smsCode: values.smsCode.trim(),
        newPassword: hashPassword(values.newPassword),
      });
      navigate('/modified', { replace: true });
    } catch (error) {
      applyFieldErrors(form, error);
    }
  });

  return (
    <PublicPageFrame title={t('reset.title')}>
      {mustChange ? (
        <Alert
          type="warning"
          showIcon
          style={{ margin: '12px 0 20px' }}
          title={pageState.phoneMasked ? t('reset.mustChangeNoticePhone', { phone: pageState.phoneMasked }) : t('reset.mustChangeNotice')}
          data-testid="must-change-notice"
        />
      ) : (
        <div style={{ height: 20 }} />
      )}
      <Form
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={submit.run}
        initialValues={{ userName: params.get('userName') ?? '', phoneNum: params.get('phoneNum') ?? '' }}
      >
        <Form.Item name="userName" rules={[rules.required(t('field.userName'))]}>
          <Input prefix={<UserOutlined />} placeholder={t('field.userName')} autoComplete="username" />
        </Form.Item>
        <Form.Item name="phoneNum" rules={[rules.required(t('field.phoneNum')), rules.phone]}>
          <Input prefix={<MobileOutlined />} placeholder={t('field.phoneNum')} maxLength={11} inputMode="numeric" />
        </Form.Item>
        <Form.Item required>
          <Space.Compact block>
            <Form.Item name="smsCode" noStyle rules={[rules.required(t('field.smsCode')), rules.smsCode]}>
              <Input prefix={<SafetyOutlined />} placeholder={t('field.smsCode')} maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
            </Form.Item>
            <SmsCodeButton send={sendCode} sentAt={pageState.smsSentAt} size="large" />
          </Space.Compact>
        </Form.Item>
        <Form.Item name="newPassword" rules={[rules.required(t('field.newPassword')), rules.strongPassword]} hasFeedback>
          <Input.Password prefix={<LockOutlined />} placeholder={t('field.newPassword')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          dependencies={['newPassword']}
          rules={[rules.required(t('field.confirmPassword')), rules.sameAs('newPassword')]}
          hasFeedback
        >
          <Input.Password prefix={<LockOutlined />} placeholder={t('field.confirmPassword')} autoComplete="new-password" />
        </Form.Item>
        <SubmitButton guard={submit} type="primary" htmlType="submit" block>
          {t('reset.submit')}
        </SubmitButton>
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Link to="/login">{t('forget.backToLogin')}</Link>
        </div>
      </Form>
    </PublicPageFrame>
  );
}
