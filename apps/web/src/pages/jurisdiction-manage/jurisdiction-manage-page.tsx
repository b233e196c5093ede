import { Tabs } from 'antd';
import { useLoginUser } from '../../hooks/use-login-user';
import { GrantPanel } from './grant-panel';
import { LoginLogPanel } from './login-log-panel';
import { ProbesPanel } from './probes-panel';
import { useT } from '../../lib/i18n';

/**
 * jurisdictionManage: grants per user type and per user; for company administrators also the
 * visibility probes and the login log. An agent sees only the grants of its own child accounts.
 */
export default function JurisdictionManagePage() {
  const t = useT();
  const info = useLoginUser();
  if (!info.data) return null;
  const isCompany = info.data.type === 'company';
  return (
    <div className="page-stack jurisdiction-manage">
      <Tabs
        destroyOnHidden={false}
        items={[
          { key: 'grants', label: t('jurisdiction.tabGrants'), children: <GrantPanel isCompany={isCompany} /> },
          ...(isCompany
            ? [
                { key: 'probes', label: t('jurisdiction.tabProbes'), children: <ProbesPanel /> },
                { key: 'loginLog', label: t('jurisdiction.tabLoginLog'), children: <LoginLogPanel /> },
              ]
            : []),
        ]}
      />
    </div>
  );
}
