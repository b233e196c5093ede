import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, saveSession } from '../lib/session';
import { BADGE_REFRESH_MS, useBadgeCounts } from './use-navigation';

function badgeAnswer(count: number): Response {
  return new Response(JSON.stringify({ code: 200, message: 'ok', data: { feedback: count } }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** A live stream that says it is ready, then sends what `push` is given, and stays open. */
function liveStream(): { response: Response; push(text: string): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  const push = (text: string) => controller.enqueue(encoder.encode(text));
  push('retry: 3000\nevent: ready\ndata: {"transport":"memory"}\n\n');
  return { response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }), push };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearSession();
});

const session = { token: 'tok-1', schoolName: 'HQ', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '2030-01-01T00:00:00Z', frameIds: [] };

function renderBadges() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useBadgeCounts(true), { wrapper });
}

describe('useBadgeCounts', () => {
  it('reads the badges, and polls them every minute while the live stream is lost, as background calls (X-Background: 1, ASVS 3.3.2)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    saveSession(session);
    let answers = 0;
    const fetchMock = vi.fn((url: string) => (url === '/api/Live/Stream' ? Promise.reject(new TypeError('stream lost')) : Promise.resolve(badgeAnswer((answers += 1)))));
    vi.stubGlobal('fetch', fetchMock);
    const { result, unmount } = renderBadges();
    await waitFor(() => expect(result.current.data).toEqual({ feedback: 1 }));
    await act(() => vi.advanceTimersByTimeAsync(BADGE_REFRESH_MS));
    await waitFor(() => expect(result.current.data).toEqual({ feedback: 2 }));
    const badgeCalls = (fetchMock.mock.calls as unknown as [string, RequestInit][]).filter(([url]) => url !== '/api/Live/Stream');
    expect(badgeCalls).toHaveLength(2);
    for (const call of badgeCalls) {
      expect(call[0]).toBe('/api/Home/GetBadgeCounts');
      expect(call[1].headers).toMatchObject({ 'X-Background': '1', Authorization: 'Bearer tok-1' });
    }
    unmount();
  });

  it('reads the badges again on a pushed badge event, and does not poll while the stream is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    saveSession(session);
    const stream = liveStream();
    let answers = 0;
    const fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/Live/Stream') {
        expect(init.headers).toMatchObject({ 'X-Background': '1', Authorization: 'Bearer tok-1' });
        return Promise.resolve(stream.response);
      }
      return Promise.resolve(badgeAnswer((answers += 1)));
    });
    vi.stubGlobal('fetch', fetchMock);
    const { result, unmount } = renderBadges();
    await waitFor(() => expect(result.current.data).toEqual({ feedback: 1 }));
    act(() => stream.push('event: badges\ndata: {"topic":"badges","schoolId":3,"at":1}\n\n'));
    await act(() => vi.advanceTimersByTimeAsync(500));
    await waitFor(() => expect(result.current.data).toEqual({ feedback: 2 }));
    // A minute with the stream open: no poll.
    await act(() => vi.advanceTimersByTimeAsync(BADGE_REFRESH_MS));
    expect(answers).toBe(2);
    unmount();
  });
});
