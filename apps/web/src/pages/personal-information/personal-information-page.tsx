import { Col, Row } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { userApi } from '../../lib/api/user';
import { useSession } from '../../lib/session';
import { PasswordCard } from './password-card';
import { ProfileCard } from './profile-card';
import { RefundPasswordCard } from './refund-password-card';
import { SessionsCard } from './sessions-card';
import './personal-information-page.css';

/** personalInformation: own profile, login password (SMS-verified), refund password and sessions. */
export default function PersonalInformationPage() {
  const token = useSession()?.token;
  const queryKey = ['loginUserInfo', token] as const;
  const info = useQuery({ queryKey, queryFn: userApi.getLoginUserInfo });

  return (
    <div className="page-stack personal-information">
      <ProfileCard info={info.data} queryKey={queryKey} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <PasswordCard />
        </Col>
        <Col xs={24} xl={12}>
          <RefundPasswordCard hasRefundPassword={info.data?.hasRefundPassword} queryKey={queryKey} />
        </Col>
      </Row>
      <SessionsCard />
    </div>
  );
}
