import { School } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResourceApi } from '../shared/resource-api';
import { useResourceList } from './use-resource-list';

/** The list over a stub Search that records what it is asked; no table is drawn. */
function renderList(fixedValues?: Record<string, number>) {
  const answer = { items: [{ id: 1, version: 1, schoolName: 'Sunshine' }], total: 45, totalIsCapped: false };
  // Page 3 never answers: what the list shows meanwhile is the page before.
  const search = vi.fn((body: { pageIndex: number }) => (body.pageIndex === 3 ? new Promise<never>(() => undefined) : Promise.resolve(answer)));
  const api = { search } as unknown as ResourceApi;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useResourceList({ def: School, frame: 'schoolManage', fixedValues, api }), { wrapper });
  return { ...hook, search };
}

describe('useResourceList', () => {
  it('asks for the first page without filters, then the page and sort the table changes to', async () => {
    const { result, search } = renderList();
    await waitFor(() => expect(result.current.total).toBe(45));
    expect(search).toHaveBeenLastCalledWith({ pageIndex: 1, pageSize: 20 });
    act(() => result.current.changePage({ pageIndex: 3, pageSize: 10 }, { sortField: 'schoolName', sortOrder: 'asc' }));
    await waitFor(() => expect(search).toHaveBeenLastCalledWith({ pageIndex: 3, pageSize: 10, sortField: 'schoolName', sortOrder: 'asc' }));
    // The previous page stays on screen while the next one loads: no flash of an empty table.
    expect(result.current.rows).toHaveLength(1);
    expect(result.current.search.isFetching).toBe(true);
  });

  it('starts again at page 1 with nothing selected when the filters change, keeping the page size', async () => {
    const { result, search } = renderList();
    await waitFor(() => expect(search).toHaveBeenCalled());
    act(() => result.current.changePage({ pageIndex: 4, pageSize: 50 }, {}));
    act(() => result.current.setSelectedIds([1, 2]));
    act(() => result.current.applyFilters({ schoolName: 'Sun' }));
    expect(result.current.paging).toEqual({ pageIndex: 1, pageSize: 50 });
    expect(result.current.selectedIds).toEqual([]);
    await waitFor(() => expect(search).toHaveBeenLastCalledWith(expect.objectContaining({ schoolName: 'Sun', pageIndex: 1, pageSize: 50 })));
  });

  it('asks the server again when 查询 is pressed with the same filters', async () => {
    const { result, search } = renderList();
    act(() => result.current.applyFilters({ schoolName: 'Sun' }));
    await waitFor(() => expect(search).toHaveBeenLastCalledWith(expect.objectContaining({ schoolName: 'Sun', pageIndex: 1 })));
    await waitFor(() => expect(result.current.search.isFetching).toBe(false));
    const calls = search.mock.calls.length;
    act(() => result.current.applyFilters({ schoolName: 'Sun' }));
    await waitFor(() => expect(search.mock.calls.length).toBe(calls + 1));
    expect(search).toHaveBeenLastCalledWith(expect.objectContaining({ schoolName: 'Sun', pageIndex: 1 }));
  });

  it('sends the values the surrounding page fixes with every search', async () => {
    const { result, search } = renderList({ schoolId: 11 });
    await waitFor(() => expect(search).toHaveBeenLastCalledWith({ pageIndex: 1, pageSize: 20, schoolId: 11 }));
    act(() => result.current.changePage({ pageIndex: 2, pageSize: 20 }, {}));
    await waitFor(() => expect(search).toHaveBeenLastCalledWith({ pageIndex: 2, pageSize: 20, schoolId: 11 }));
  });

  describe('with refreshSeconds (live columns)', () => {
    afterEach(() => vi.useRealTimers());

    it('reads the page again as a background call while the user does nothing, and its answer replaces the rows', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      let round = 0;
      const search = vi.fn(() => {
        round += 1;
        return Promise.resolve({ items: [{ id: 1, version: round, schoolName: `Round ${round}` }], total: 1, totalIsCapped: false });
      });
      const api = { search } as unknown as ResourceApi;
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
      const { result } = renderHook(() => useResourceList({ def: School, frame: 'schoolManage', api, refreshSeconds: 45 }), { wrapper });
      await waitFor(() => expect(result.current.rows).toEqual([expect.objectContaining({ schoolName: 'Round 1' })]));
      // The user's own search slides the session: no background mark.
      expect(search.mock.calls[0]).toEqual([{ pageIndex: 1, pageSize: 20 }]);
      await act(() => vi.advanceTimersByTimeAsync(45_000));
      await waitFor(() => expect(result.current.rows).toEqual([expect.objectContaining({ schoolName: 'Round 2' })]));
      expect(search.mock.calls[1]).toEqual([{ pageIndex: 1, pageSize: 20 }, { background: true }]);
      expect(search).toHaveBeenCalledTimes(2);
    });
  });
});
