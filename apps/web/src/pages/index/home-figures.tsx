/** Today's key figures of the caller's scope on the home page, live (the Overview). */
import { Alert, Card } from 'antd';
import { useT } from '../../lib/i18n';
import { LiveStatus } from '../live/live-status';
import { OverviewFigures } from '../live/overview-figures';
import { useOverview } from '../live/use-overview';

export function HomeFigures() {
  const t = useT();
  const overview = useOverview();
  return (
    <Card title={t('live.figuresTitle')} className="index-card" loading={overview.isPending} extra={<LiveStatus isLive={overview.isLive} at={overview.data?.at} />} data-testid="home-figures">
      {overview.isError ? <Alert type="error" showIcon message={t('live.loadFailed')} /> : overview.data ? <OverviewFigures overview={overview.data} /> : null}
    </Card>
  );
}
