import { KeyOutlined, LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginResponse, SecondFactorChallenge } from '@campus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { pathAfterLogin } from '../../lib/public-route-guard';
import { PageSpinner } from '../../components/page-spinner';
import { PublicPageFrame } from '../../components/public-page-frame';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { accountApi } from '../../lib/api/account';
import { useT } from '../../lib/i18n';
import { RequestError } from '../../lib/request';
import { onRequestEvent } from '../../lib/request-events';
import { saveSession, sessionFromLogin } from '../../lib/session';
import { PlainButton, PlainErrorAlert, PlainField } from './plain-controls';
import { requiredCheck, usePlainForm } from './use-plain-form';
import { useCaptcha } from './use-captcha';

/** Needed only when two-factor is mandatory and not yet set up: its own chunk, with antd's QR code. */
const TwoFactorSetupStep = lazy(() => import('./two-factor-setup-step'));

function isChallenge(data: unknown): data is SecondFactorChallenge {
  return typeof data === 'object' && data !== null && typeof (data as { challenge?: unknown }).challenge === 'string';
}

/** The submit event's default is a page load: every form of the page sends through the request client instead. */
function onSubmitOf(run: () => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    run();
  };
}

/**
 * The second step of a login that answered 602: the authenticator's six digits or a recovery code,
 * sent with the challenge. "Back" starts again from the password.
 */
function SecondFactorStep({ challenge, onSignedIn, onBack }: { challenge: string; onSignedIn: (answer: LoginResponse) => void; onBack: () => void }) {
  const t = useT();
  const form = usePlainForm({ code: '' }, { code: requiredCheck(t('common.required', { field: t('login.secondFactorCode') })) });
  const submit = usePreventDoubleClick(async (values: { code: string }) => {
    try {
      onSignedIn(await accountApi.loginSecondFactor({ challenge, code: values.code.trim() }));
    } catch (error) {
      form.showServerErrors(error);
      form.set({ code: '' });
    }
  });
  const send = () => {
    const values = form.validate();
    if (values) submit.run(values);
  };
  return (
    <form onSubmit={onSubmitOf(send)} autoComplete="off" noValidate data-testid="second-factor-form">
      <p className="login-hint">{t('login.secondFactorHint')}</p>
      <PlainField
        id="code"
        value={form.values.code}
        onChange={(value) => form.change('code', value)}
        errors={form.errors.code}
        icon={<KeyOutlined />}
        placeholder={t('login.secondFactorCode')}
        autoComplete="one-time-code"
        inputMode="text"
        maxLength={16}
        autoFocus
      />
      <PlainButton variant="primary" htmlType="submit" isLoading={submit.isRunning} disabled={submit.isBlocked && !submit.isRunning}>
        {t('login.secondFactorSubmit')}
      </PlainButton>
      <PlainButton variant="link" onClick={onBack} style={{ marginTop: 8 }}>
        {t('login.secondFactorBack')}
      </PlainButton>
    </form>
  );
}

type LoginFieldName = 'userName' | 'password' | 'vcCode';

/**
 * /login: user name, password (sent as MD5) and the image code; then the second factor when the account
 * has one, or its set-up when two-factor is mandatory and the account has none yet. Drawn in plain markup (./plain-controls): the first page of most visits carries no antd.
 */
export default function LoginPage() {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const required = (field: string) => requiredCheck(t('common.required', { field }));
  const { captcha, refresh: refreshCaptcha } = useCaptcha();
  const codeRequired = required(t('login.captcha'));
  const form = usePlainForm<LoginFieldName>(
    { userName: '', password: '', vcCode: '' },
    {
      userName: required(t('login.userName')),
      password: required(t('login.password')),
      // A code typed before its image arrived belongs to no image: the server could only refuse it.
      vcCode: (value) => codeRequired(value) ?? (captcha.vcId ? null : t('login.captchaNotReady')),
    },
  );
  const [loginMessage, setLoginMessage] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<string | null>(null);
  const [setupChallenge, setSetupChallenge] = useState<string | null>(null);

  // Code 600 arrives as the request client's login message event (SEED-SPEC section 8).
  useEffect(() => onRequestEvent('loginMessage', ({ message }) => setLoginMessage(message)), []);

  const signedIn = (answer: LoginResponse) => {
    // Nothing cached for a previous account may leak into this one.
    queryClient.clear();
    saveSession(sessionFromLogin(answer));
    navigate(pathAfterLogin(location.search), { replace: true });
  };

  const submit = usePreventDoubleClick(async (values: Record<LoginFieldName, string>) => {
    setLoginMessage(null);
    try {
      // MD5 is needed only once someone signs in: its module stays out of the page's first bytes.
      const { hashPassword } = await import('../../lib/md5');
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
      // 603: the password was right and two-factor is mandatory; set up the authenticator first.
      if (error instanceof RequestError && error.kind === 'twoFactorSetupRequired' && isChallenge(error.data)) {
        setSetupChallenge(error.data.challenge);
        return;
      }
      form.showServerErrors(error);
      form.set({ vcCode: '' });
      void refreshCaptcha();
    }
  });
  const send = () => {
    const values = form.validate();
    if (values) submit.run(values);
  };

  const message = loginMessage ? <PlainErrorAlert data-testid="login-message">{loginMessage}</PlainErrorAlert> : null;

  const backToPassword = () => {
    setChallenge(null);
    setSetupChallenge(null);
    setLoginMessage(null);
    form.set({ password: '', vcCode: '' });
    void refreshCaptcha();
  };

  if (setupChallenge) {
    return (
      <PublicPageFrame title={t('login.twoFactorSetupTitle')} subtitle={t('login.passwordAccepted')}>
        {message}
        <Suspense fallback={<PageSpinner />}>
          <TwoFactorSetupStep challenge={setupChallenge} onSignedIn={signedIn} onBack={backToPassword} />
        </Suspense>
      </PublicPageFrame>
    );
  }

  if (challenge) {
    return (
      <PublicPageFrame title={t('login.secondFactorTitle')} subtitle={t('login.passwordAccepted')}>
        {message}
        <SecondFactorStep
          challenge={challenge}
          onSignedIn={signedIn}
          onBack={backToPassword}
        />
      </PublicPageFrame>
    );
  }

  const field = (name: LoginFieldName) => ({ id: name, value: form.values[name], onChange: (value: string) => form.change(name, value), errors: form.errors[name] });
  return (
    <PublicPageFrame title={t('login.title')} subtitle={t('login.welcome')}>
      <form onSubmit={onSubmitOf(send)} autoComplete="on" noValidate>
        <PlainField {...field('userName')} icon={<UserOutlined />} placeholder={t('login.userName')} autoComplete="username" autoFocus />
        <PlainField {...field('password')} type="password" icon={<LockOutlined />} placeholder={t('login.password')} autoComplete="current-password" />
        <PlainField
          {...field('vcCode')}
          icon={<SafetyCertificateOutlined />}
          placeholder={t('login.captcha')}
          autoComplete="off"
          maxLength={16}
          extra={t('login.captchaRefresh')}
          beside={
            <button type="button" className="captcha-image" onClick={() => void refreshCaptcha()} title={t('login.captchaRefresh')} data-testid="captcha-image">
              {captcha.isLoading && !captcha.src ? (
                <PageSpinner size="small" />
              ) : captcha.src ? (
                <img src={captcha.src} alt={t('login.captcha')} />
              ) : (
                <span className="captcha-image-failed">{t('login.captchaFailed')}</span>
              )}
            </button>
          }
        />
        <div className="public-links">
          <span />
          <Link to="/forget">{t('login.forget')}</Link>
        </div>
        {message}
        <PlainButton variant="primary" htmlType="submit" isLoading={submit.isRunning} disabled={submit.isBlocked && !submit.isRunning}>
          {t('login.submit')}
        </PlainButton>
      </form>
    </PublicPageFrame>
  );
}
