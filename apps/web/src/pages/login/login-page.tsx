import { KeyOutlined, LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginResponse, SecondFactorChallenge } from '@campus/contract';
import { Alert, Button, Form, Input, Spin } from 'antd';
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
import { RequestError } from '../../lib/request';
import { onRequestEvent } from '../../lib/request-events';
import { saveSession, sessionFromLogin } from '../../lib/session';
import { formRules } from '../../lib/validation-rules';
import { useCaptcha } from './use-captcha';

interface LoginForm {
  userName: string;
  password: string;
  vcCode: string;
}

interface SecondFactorForm {
  code: string;
}

function isChallenge(data: unknown): data is SecondFactorChallenge {
  return typeof data === 'object' && data !== null && typeof (data as { challenge?: unknown }).challenge === 'string';
}

/**
 * The second step of a login that answered 602: the authenticator's six digits or a recovery code,
 * sent with the challenge. "Back" starts again from the password.
 */
function SecondFactorStep({ challenge, onSignedIn, onBack }: { challenge: string; onSignedIn: (answer: LoginResponse) => void; onBack: () => void }) {
  const t = useT();
  const rules = formRules(t);
  const [form] = Form.useForm<SecondFactorForm>();
  const submit = usePreventDoubleClick(async (values: SecondFactorForm) => {
    try {
      onSignedIn(await accountApi.loginSecondFactor({ challenge, code: values.code.trim() }));
    } catch (error) {
      applyFieldErrors(form, error);
      form.setFieldValue('code', '');
    }
  });
  return (
    <Form form={form} layout="vertical" size="large" requiredMark={false} onFinish={submit.run} autoComplete="off" data-testid="second-factor-form">
      <p className="card-hint-block">{t('login.secondFactorHint')}</p>
      <Form.Item name="code" rules={[rules.required(t('login.secondFactorCode'))]}>
        <Input prefix={<KeyOutlined />} placeholder={t('login.secondFactorCode')} autoComplete="one-time-code" inputMode="text" maxLength={16} autoFocus />
      </Form.Item>
      <SubmitButton guard={submit} type="primary" htmlType="submit" block>
        {t('login.secondFactorSubmit')}
      </SubmitButton>
      <Button type="link" block onClick={onBack} style={{ marginTop: 8 }}>
        {t('login.secondFactorBack')}
      </Button>
    </Form>
  );
}

/** /login: user name, password (sent as MD5) and the image code; then the second factor when the account has one. */
export default function LoginPage() {
  const t = useT();
  const rules = formRules(t);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<LoginForm>();
  const { captcha, refresh: refreshCaptcha } = useCaptcha();
  const [loginMessage, setLoginMessage] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<string | null>(null);

  // Code 600 arrives as the request client's login message event (SEED-SPEC section 8).
  useEffect(() => onRequestEvent('loginMessage', ({ message }) => setLoginMessage(message)), []);

  const signedIn = (answer: LoginResponse) => {
    // Nothing cached for a previous account may leak into this one.
    queryClient.clear();
    saveSession(sessionFromLogin(answer));
    navigate('/index', { replace: true });
  };

  const submit = usePreventDoubleClick(async (values: LoginForm) => {
    setLoginMessage(null);
    try {
      const answer = await accountApi.login({
        userName: values.userName.trim(),
        password: hashPassword(values.password),
        vcId: captcha.vcId ?? '',
        vcCode: values.vcCode.trim(),
      });
      signedIn(answer);
    } catch (error) {
      // 602: the password was right and the account has an authenticator; ask for its code.
      if (error instanceof RequestError && error.kind === 'secondFactorRequired' && isChallenge(error.data)) {
        setChallenge(error.data.challenge);
        return;
      }
      applyFieldErrors(form, error);
      form.setFieldValue('vcCode', '');
      void refreshCaptcha();
    }
  });

  const message = loginMessage ? <Alert type="error" showIcon title={loginMessage} style={{ marginBottom: 16 }} data-testid="login-message" /> : null;

  if (challenge) {
    return (
      <PublicPageFrame title={t('login.secondFactorTitle')} subtitle={t('login.welcome')}>
        {message}
        <SecondFactorStep
          challenge={challenge}
          onSignedIn={signedIn}
          onBack={() => {
            setChallenge(null);
            setLoginMessage(null);
            form.setFieldsValue({ password: '', vcCode: '' });
            void refreshCaptcha();
          }}
        />
      </PublicPageFrame>
    );
  }

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
        {message}
        <SubmitButton guard={submit} type="primary" htmlType="submit" block>
          {t('login.submit')}
        </SubmitButton>
      </Form>
    </PublicPageFrame>
  );
}
