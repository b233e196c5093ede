import { Typography } from 'antd';
import { formatBusinessDateTime } from '@campus/contract';
import { useT } from '../../lib/i18n';

/** Whether the page is pushed or polling, and when its figures were read. */
export function LiveStatus({ isLive, at }: { isLive: boolean; at?: string }) {
  const t = useT();
  return (
    <span className="live-status" data-testid="live-status" data-live={isLive ? '1' : '0'}>
      <span className={isLive ? 'live-dot is-live' : 'live-dot'} />
      <span>{isLive ? t('live.streamOn') : t('live.streamOff')}</span>
      {at ? <Typography.Text type="secondary">{t('live.updatedAt', { time: formatBusinessDateTime(at, { seconds: true }) })}</Typography.Text> : null}
    </span>
  );
}
