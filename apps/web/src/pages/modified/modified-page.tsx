import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { PublicPageFrame } from '../../components/public-page-frame';
import { useT } from '../../lib/i18n';

/** /modified: the password was changed; back to sign in. */
export default function ModifiedPage() {
  const t = useT();
  const navigate = useNavigate();
  return (
    <PublicPageFrame title={t('reset.title')}>
      <Result
        status="success"
        title={t('modified.title')}
        subTitle={t('modified.subtitle')}
        extra={
          <Button type="primary" size="large" onClick={() => navigate('/login', { replace: true })}>
            {t('modified.toLogin')}
          </Button>
        }
      />
    </PublicPageFrame>
  );
}
