import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Form, Input, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PublicPageFrame } from '../../components/public-page-frame';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { accountApi } from '../../lib/api/account';
import { applyFieldErrors } from '../../lib/form-errors';
import { useT } from '../../lib/i18n';
import { hashPassword } from '../../lib/md5';
import { onRequestEvent } from '../../lib/request-events';
import { saveSession, sessionFromLogin } from '../../lib/session';
import { formRules } from '../../lib/validation-rules';
import { useCaptcha } from './use-captcha';

interface LoginForm {
  userName: string;
  password: string;
  vcCode: string;
}

/** /login: user name, password (sent as MD5) and the image code. */
export default function LoginPage() {
  const t = useT();
  const rules = formRules(t);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<LoginForm>();
  const { captcha, refresh: refreshCaptcha } = useCaptcha();
  const [loginMessage, setLoginMessage] = useState<string | null>(null);

  // Code 600 arrives as the request client's login message event (SEED-SPEC section 8).
  useEffect(() => onRequestEvent('loginMessage', ({ message }) => setLoginMessage(message)), []);

  const submit = usePreventDoubleClick(async (values: LoginForm) => {
    setLoginMessage(null);
    try {
      const answer = await accountApi.login({
        userName: values.userName.trim(),
        password: hashPassword(values.password),
        vcId: captcha.vcId ?? '',
        vcCode: values.vcCode.trim(),
      });
      // Nothing cached for a previous account may leak into this one.
      queryClient.clear();
      saveSession(sessionFromLogin(answer));
      navigate('/index', { replace: true });
    } catch (error) {
      applyFieldErrors(form, error);
      form.setFieldValue('vcCode', '');
      void refreshCaptcha();
    }
  });

  return (
    <PublicPageFrame title={t('login.title')} subtitle={t('login.welcome')}>
      <Form form={form} layout="vertical" size="large" requiredMark={false} onFinish={submit.run} autoComplete="on">
        <Form.Item name="userName" rules={[rules.required(t('login.userName'))]}>
          <Input prefix={<UserOutlined />} placeholder={t('login.userName')} autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" rules={[rules.required(t('login.password'))]}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('login.password')} autoComplete="current-password" />
        </Form.Item>
        <Form.Item required extra={t('login.captchaRefresh')}>
          <div className="captcha-row">
            <Form.Item name="vcCode" noStyle rules={[rules.required(t('login.captcha'))]}>
              <Input prefix={<SafetyCertificateOutlined />} placeholder={t('login.captcha')} autoComplete="off" maxLength={16} />
            </Form.Item>
            <button type="button" className="captcha-image" onClick={() => void refreshCaptcha()} title={t('login.captchaRefresh')} data-testid="captcha-image">
              {captcha.isLoading && !captcha.src ? (
                <Spin size="small" />
              ) : captcha.src ? (
                <img src={captcha.src} alt={t('login.captcha')} />
              ) : (
                <span className="captcha-image-failed">{t('login.captchaFailed')}</span>
              )}
            </button>
          </div>
        </Form.Item>
        <div className="public-links">
          <span />
          <Link to="/forget">{t('login.forget')}</Link>
        </div>
        {loginMessage ? <Alert type="error" showIcon title={loginMessage} style={{ marginBottom: 16 }} data-testid="login-message" /> : null}
        <SubmitButton guard={submit} type="primary" htmlType="submit" block>
          {t('login.submit')}
        </SubmitButton>
      </Form>
    </PublicPageFrame>
  );
}
