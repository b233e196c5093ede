/** What a list shows when its Search failed: the reason and a retry, in place of "no data". */
import { Suspense, lazy } from 'react';

// antd's Result (≈ 10 kB of gzipped JS) is fetched when a Search fails, not with every list.
const SearchFailedNotice = lazy(() => import('./search-failed-notice'));

export function SearchFailed(props: { error: unknown; onRetry: () => void }) {
  return (
    <Suspense fallback={null}>
      <SearchFailedNotice {...props} />
    </Suspense>
  );
}
