/**
 * The set-up step of a login that answered 603 (two-factor sign-in is mandatory and the account has
 * no authenticator yet): a QR code and key, the first code, then the recovery codes once; only then
 * does the session start. A chunk of its own (React.lazy in login-page.tsx) with antd's provider and
 * QR code, so /login's first bytes stay without antd for everyone who never needs it.
 */
import { KeyOutlined } from '@ant-design/icons';
import type { LoginResponse, TotpEnrolment, TwoFactorSetupLogin } from '@campus/contract';
import { QRCode, Typography } from 'antd';
import { useEffect, useState, type FormEvent } from 'react';
import { AntdRoot } from '../../components/antd-root';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { accountApi } from '../../lib/api/account';
import { useT } from '../../lib/i18n';
import { PlainButton, PlainField } from './plain-controls';
import { requiredCheck, usePlainForm } from './use-plain-form';

export default function TwoFactorSetupStep({ challenge, onSignedIn, onBack }: { challenge: string; onSignedIn: (answer: LoginResponse) => void; onBack: () => void }) {
  const t = useT();
  const form = usePlainForm({ code: '' }, { code: requiredCheck(t('common.required', { field: t('twoFactor.code') })) });
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [done, setDone] = useState<TwoFactorSetupLogin | null>(null);
  const begin = async () => {
    try {
      setEnrolment(await accountApi.beginTwoFactorSetup(challenge));
    } catch {
      // The request client shows it: an expired sign-in (600) as the login message, anything else as a toast.
    }
  };
  // The secret is asked for once, as the step opens.
  useEffect(() => {
    void begin();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per challenge
  }, [challenge]);

  const confirm = usePreventDoubleClick(async (values: { code: string }) => {
    try {
      setDone(await accountApi.confirmTwoFactorSetup({ challenge, code: values.code.trim() }));
    } catch (error) {
      form.showServerErrors(error);
      form.set({ code: '' });
    }
  });
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = form.validate();
    if (values) confirm.run(values);
  };

  if (done) {
    return (
      <AntdRoot>
        <div data-testid="setup-recovery-codes">
          <p className="login-hint">
            <strong>{t('twoFactor.codesTitle')}</strong> {t('twoFactor.codesHint')}
          </p>
          <Typography.Paragraph copyable={{ text: done.recoveryCodes.join('\n') }}>
            <ol className="recovery-codes">
              {done.recoveryCodes.map((code) => (
                <li key={code}>
                  <Typography.Text code>{code}</Typography.Text>
                </li>
              ))}
            </ol>
          </Typography.Paragraph>
          <PlainButton variant="primary" onClick={() => onSignedIn(done.login)}>
            {t('login.twoFactorSetupContinue')}
          </PlainButton>
        </div>
      </AntdRoot>
    );
  }

  return (
    <AntdRoot>
      <form onSubmit={send} autoComplete="off" noValidate data-testid="two-factor-setup">
        <p className="login-hint">{t('login.twoFactorSetupHint')}</p>
        {enrolment ? (
          <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', marginBottom: 16 }}>
            <QRCode value={enrolment.uri} size={176} bordered />
            <p>
              {t('twoFactor.secretLabel')}{' '}
              <Typography.Text code copyable data-testid="setup-secret">
                {enrolment.secret}
              </Typography.Text>
            </p>
          </div>
        ) : (
          <PlainButton variant="link" onClick={() => void begin()}>
            {t('login.twoFactorSetupStart')}
          </PlainButton>
        )}
        <PlainField
          id="code"
          value={form.values.code}
          onChange={(value) => form.change('code', value)}
          errors={form.errors.code}
          icon={<KeyOutlined />}
          placeholder={t('twoFactor.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
        />
        <PlainButton variant="primary" htmlType="submit" isLoading={confirm.isRunning} disabled={!enrolment || (confirm.isBlocked && !confirm.isRunning)}>
          {t('login.twoFactorSetupSubmit')}
        </PlainButton>
        <PlainButton variant="link" onClick={onBack} style={{ marginTop: 8 }}>
          {t('login.secondFactorBack')}
        </PlainButton>
      </form>
    </AntdRoot>
  );
}
