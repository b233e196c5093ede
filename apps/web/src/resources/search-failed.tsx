/** What a list shows when its Search failed: the reason and a retry, in place of "no data". */
import { Button, Result } from 'antd';
import { useT } from '../lib/i18n';
import { RequestError } from '../lib/request';

export function SearchFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const t = useT();
  const reason = error instanceof RequestError ? error.message : '';
  return (
    <Result
      status="warning"
      className="search-failed"
      data-testid="search-failed"
      title={reason ? t('resource.loadFailed', { reason }) : t('resource.loadFailedShort')}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
