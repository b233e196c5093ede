import { Col, Row } from 'antd';
import { loginUserQueryKey, useLoginUser } from '../../hooks/use-login-user';
import { useSession } from '../../lib/session';
import { PasswordCard } from './password-card';
import { ProfileCard } from './profile-card';
import { RefundPasswordCard } from './refund-password-card';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';
import './personal-information-page.css';

/** personalInformation: own profile, login password (SMS-verified), refund password, two-factor sign-in and sessions. */
export default function PersonalInformationPage() {
  const queryKey = loginUserQueryKey(useSession()?.token);
  const info = useLoginUser();

  return (
    <div className="page-stack personal-information">
      <ProfileCard info={info.data} queryKey={queryKey} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <PasswordCard />
        </Col>
        {/* Only operators who refund keep a refund password; the server refuses the others anyway. */}
        {info.data?.canSetRefundPassword && (
          <Col xs={24} xl={12}>
            <RefundPasswordCard hasRefundPassword={info.data.hasRefundPassword} queryKey={queryKey} />
          </Col>
        )}
      </Row>
      <TwoFactorCard info={info.data} queryKey={queryKey} />
      <SessionsCard />
    </div>
  );
}
