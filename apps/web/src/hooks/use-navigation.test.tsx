import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, saveSession } from '../lib/session';
import { BADGE_REFRESH_MS, useBadgeCounts } from './use-navigation';

function badgeAnswer(count: number): Response {
  return new Response(JSON.stringify({ code: 200, message: 'ok', data: { feedback: count } }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearSession();
});

describe('useBadgeCounts', () => {
  it('reads the badges, and polls them every minute, as background calls (X-Background: 1, ASVS 3.3.2)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    saveSession({ token: 'tok-1', schoolName: 'HQ', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '2030-01-01T00:00:00Z', frameIds: [] });
    let answers = 0;
    const fetchMock = vi.fn(() => Promise.resolve(badgeAnswer((answers += 1))));
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useBadgeCounts(true), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual({ feedback: 1 }));
    await act(() => vi.advanceTimersByTimeAsync(BADGE_REFRESH_MS));
    await waitFor(() => expect(result.current.data).toEqual({ feedback: 2 }));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    for (const call of fetchMock.mock.calls as unknown as [string, RequestInit][]) {
      expect(call[0]).toBe('/api/Home/GetBadgeCounts');
      expect(call[1].headers).toMatchObject({ 'X-Background': '1', Authorization: 'Bearer tok-1' });
    }
  });
});
