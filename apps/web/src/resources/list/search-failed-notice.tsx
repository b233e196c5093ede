/** The notice of a failed Search (antd's Result), downloaded only when a Search fails (search-failed.tsx). */
import { Button, Result } from 'antd';
import { useT } from '../../lib/i18n';
import { RequestError } from '../../lib/request';

export default function SearchFailedNotice({ error, onRetry }: { error: unknown; onRetry: () => void }) {
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
