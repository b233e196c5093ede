import type { LoginUserInfo, TotpEnrolment } from '@campus/contract';
import { Alert, Button, Card, Form, Input, QRCode, Space, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { userApi } from '../../lib/api/user';
import { applyFieldErrors } from '../../lib/form-errors';
import { useT } from '../../lib/i18n';
import { hashPassword } from '../../lib/md5';
import { showToast } from '../../lib/toast';
import { formRules } from '../../lib/validation-rules';

/** Where the set-up stands: asking for the password, showing the QR code, or showing the recovery codes (once). */
type Step = { kind: 'start' } | { kind: 'scan'; enrolment: TotpEnrolment } | { kind: 'codes'; recoveryCodes: string[] };

/**
 * TOTP two-factor sign-in of the caller's own account (administrators only): set it up with the login
 * password, a QR code and a first code; turn it off with the password and a code. The secret and the
 * recovery codes are shown once, as the server answers them only once.
 */
export function TwoFactorCard({ info, queryKey }: { info: LoginUserInfo | undefined; queryKey: readonly unknown[] }) {
  const t = useT();
  const rules = formRules(t);
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'start' });
  const [startForm] = Form.useForm<{ password: string }>();
  const [confirmForm] = Form.useForm<{ code: string }>();
  const [disableForm] = Form.useForm<{ password: string; code: string }>();

  const begin = usePreventDoubleClick(async (values: { password: string }) => {
    try {
      setStep({ kind: 'scan', enrolment: await userApi.beginTotp(hashPassword(values.password)) });
      startForm.resetFields();
    } catch (error) {
      applyFieldErrors(startForm, error);
    }
  });

  const confirm = usePreventDoubleClick(async (values: { code: string }) => {
    try {
      const { recoveryCodes } = await userApi.confirmTotp(values.code.trim());
      setStep({ kind: 'codes', recoveryCodes });
      confirmForm.resetFields();
      await queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      applyFieldErrors(confirmForm, error);
    }
  });

  const disable = usePreventDoubleClick(async (values: { password: string; code: string }) => {
    try {
      await userApi.disableTotp({ password: hashPassword(values.password), code: values.code.trim() });
      showToast('success', t('twoFactor.disabled'));
      disableForm.resetFields();
      await queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      applyFieldErrors(disableForm, error);
    }
  });

  if (!info?.twoFactor.available) return null;
  const { enabled, recoveryCodesLeft } = info.twoFactor;
  const status = <Tag color={enabled ? 'success' : 'default'}>{enabled ? t('twoFactor.on') : t('twoFactor.off')}</Tag>;

  let body;
  if (step.kind === 'codes') {
    body = (
      <div data-testid="recovery-codes">
        <Alert type="warning" showIcon title={t('twoFactor.codesTitle')} description={t('twoFactor.codesHint')} style={{ marginBottom: 16 }} />
        <Typography.Paragraph copyable={{ text: step.recoveryCodes.join('\n') }}>
          <ol className="recovery-codes">
            {step.recoveryCodes.map((code) => (
              <li key={code}>
                <Typography.Text code>{code}</Typography.Text>
              </li>
            ))}
          </ol>
        </Typography.Paragraph>
        <Button type="primary" onClick={() => setStep({ kind: 'start' })}>
          {t('twoFactor.codesSaved')}
        </Button>
      </div>
    );
  } else if (enabled) {
    body = (
      <>
        <p className="card-hint card-hint-block">{t('twoFactor.enabledHint', { count: recoveryCodesLeft })}</p>
        <Form form={disableForm} layout="vertical" onFinish={disable.run} autoComplete="off">
          <div className="form-grid">
            <Form.Item name="password" label={t('field.loginPassword')} rules={[rules.required(t('field.loginPassword'))]}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Form.Item name="code" label={t('twoFactor.codeOrRecovery')} rules={[rules.required(t('twoFactor.codeOrRecovery'))]}>
              <Input autoComplete="one-time-code" maxLength={16} />
            </Form.Item>
          </div>
          <SubmitButton guard={disable} danger htmlType="submit">
            {t('twoFactor.disable')}
          </SubmitButton>
        </Form>
      </>
    );
  } else if (step.kind === 'scan') {
    body = (
      <Space align="start" size={24} wrap data-testid="totp-enrolment">
        <QRCode value={step.enrolment.uri} size={176} bordered />
        <div style={{ maxWidth: 420 }}>
          <p className="card-hint card-hint-block">{t('twoFactor.scanHint')}</p>
          <p>
            {t('twoFactor.secretLabel')} <Typography.Text code copyable data-testid="totp-secret">{step.enrolment.secret}</Typography.Text>
          </p>
          <Form form={confirmForm} layout="vertical" onFinish={confirm.run} autoComplete="off">
            <Form.Item name="code" label={t('twoFactor.code')} rules={[rules.required(t('twoFactor.code'))]}>
              <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
            </Form.Item>
            <Space>
              <SubmitButton guard={confirm} type="primary" htmlType="submit">
                {t('twoFactor.confirm')}
              </SubmitButton>
              <Button onClick={() => setStep({ kind: 'start' })}>{t('common.cancel')}</Button>
            </Space>
          </Form>
        </div>
      </Space>
    );
  } else {
    body = (
      <>
        <p className="card-hint card-hint-block">{t('twoFactor.offHint')}</p>
        <Form form={startForm} layout="inline" onFinish={begin.run} autoComplete="off">
          <Form.Item name="password" label={t('field.loginPassword')} rules={[rules.required(t('field.loginPassword'))]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <SubmitButton guard={begin} type="primary" htmlType="submit">
            {t('twoFactor.setUp')}
          </SubmitButton>
        </Form>
      </>
    );
  }

  return (
    <Card title={t('twoFactor.title')} extra={status} data-testid="two-factor-card">
      {body}
    </Card>
  );
}
