/**
 * Above the company users: whether company administrators must sign in with an authenticator
 * (ASVS 4.3.1). Everyone with the page reads it; company users holding its `password` button switch
 * it (the server checks both, and refuses turning it on to an administrator without an authenticator).
 */
import { API_PATHS, type TwoFactorPolicy } from '@campus/contract';
import { Card, Space, Switch, Typography } from 'antd';
import { usePlatformSetting } from '../../hooks/use-platform-setting';
import { useT } from '../../lib/i18n';

export function TwoFactorPolicyCard({ frame }: { frame: string }) {
  const t = useT();
  // The server refuses turning it on to an administrator without an authenticator; the request client shows why.
  const setting = usePlatformSetting<TwoFactorPolicy>({
    key: 'twoFactorPolicy',
    path: API_PATHS.twoFactorPolicy,
    savePath: API_PATHS.saveTwoFactorPolicy,
    frame,
    button: 'password',
    savedMessage: 'twoFactor.policySaved',
  });
  return (
    <Card size="small" data-testid="two-factor-policy">
      <Space wrap>
        <Typography.Text strong>{t('twoFactor.policyTitle')}</Typography.Text>
        <Switch
          aria-label={t('twoFactor.policyTitle')}
          checked={setting.value?.required ?? false}
          loading={setting.isLoading || setting.isSaving}
          disabled={!setting.canEdit}
          onChange={(required) => void setting.save({ required })}
        />
        <Typography.Text type="secondary">{t('twoFactor.policyHint')}</Typography.Text>
      </Space>
    </Card>
  );
}
