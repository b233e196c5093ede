import type { BadgeFilterValue } from '@campus/contract';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * Opens a page in its tab (or switches to it): the shell follows the URL.
 * @example const openPage = useOpenPage(); openPage('refundManage', { state: 1 }); openPage('equipmentMaintenance', { state: [1, 2, 3] })
 */
export function useOpenPage() {
  const navigate = useNavigate();
  return useCallback(
    (index: string, query?: Readonly<Record<string, BadgeFilterValue>>) => {
      // A list value (an `in` filter) repeats its name, as the list's address does.
      const params = new URLSearchParams(Object.entries(query ?? {}).flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((one) => [key, String(one)])));
      const search = params.size > 0 ? `?${params.toString()}` : '';
      navigate(`/${index}${search}`);
    },
    [navigate],
  );
}
