/**
 * Above the company users: whether company administrators must sign in with an authenticator
 * (ASVS 4.3.1). Everyone with the page reads it; company users holding its `password` button switch
 * it (the server checks both, and refuses turning it on to an administrator without an authenticator).
 */
import { API_PATHS, type TwoFactorPolicy } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useLoginUser } from '../../hooks/use-login-user';
import { usePermission } from '../../hooks/use-permission';
import { useT } from '../../lib/i18n';
import { http } from '../../lib/request';
import { showToast } from '../../lib/toast';

const POLICY_KEY = ['twoFactorPolicy'] as const;

export function TwoFactorPolicyCard({ frame }: { frame: string }) {
  const t = useT();
  const { can } = usePermission(frame);
  const user = useLoginUser().data;
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: POLICY_KEY, queryFn: () => http.get<TwoFactorPolicy>(API_PATHS.twoFactorPolicy) });
  const [isSaving, setIsSaving] = useState(false);
  const canEdit = can('password') && user?.type === 'company';
  const save = async (required: boolean) => {
    setIsSaving(true);
    try {
      await http.post<TwoFactorPolicy>(API_PATHS.saveTwoFactorPolicy, { required });
      showToast('success', t('twoFactor.policySaved'));
      await queryClient.invalidateQueries({ queryKey: POLICY_KEY });
    } catch {
      // The request client showed the refusal (e.g. "turn it on for your own account first").
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <Card size="small" data-testid="two-factor-policy">
      <Space wrap>
        <Typography.Text strong>{t('twoFactor.policyTitle')}</Typography.Text>
        <Switch
          aria-label={t('twoFactor.policyTitle')}
          checked={current.data?.required ?? false}
          loading={current.isLoading || isSaving}
          disabled={!canEdit}
          onChange={(required) => void save(required)}
        />
        <Typography.Text type="secondary">{t('twoFactor.policyHint')}</Typography.Text>
      </Space>
    </Card>
  );
}
