import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * Opens a page in its tab (or switches to it): the shell follows the URL.
 * @example const openPage = useOpenPage(); openPage('refundManage', { state: 1 })
 */
export function useOpenPage() {
  const navigate = useNavigate();
  return useCallback(
    (index: string, query?: Readonly<Record<string, string | number | boolean>>) => {
      const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString()}` : '';
      navigate(`/${index}${search}`);
    },
    [navigate],
  );
}
