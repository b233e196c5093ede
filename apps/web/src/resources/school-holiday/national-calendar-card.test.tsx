import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestApp } from '../../test/antd.js';
import { setLocale } from '../../lib/i18n';
import { saveSession } from '../../lib/session';
import { NationalCalendarCard } from './national-calendar-card';

const RENDER_WAIT = { timeout: 5000 };

describe('the national calendar card', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it("lists the year's public holidays and worked weekends with their names", async () => {
    const years: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://localhost');
        years.push(url.searchParams.get('year') ?? '');
        const data = {
          year: Number(url.searchParams.get('year')),
          isKnown: true,
          days: [
            { date: '2026-09-20', kind: 'workday', name: { zh: '国庆节', en: 'National Day' } },
            { date: '2026-10-01', kind: 'holiday', name: { zh: '国庆节', en: 'National Day' } },
          ],
        };
        return new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
      }),
    );
    saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [617] });
    render(
      <TestApp>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <NationalCalendarCard />
        </QueryClientProvider>
      </TestApp>,
    );
    expect(await screen.findByText('2026-10-01', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.getByText('Day off')).toBeTruthy();
    expect(screen.getByText('Worked weekend')).toBeTruthy();
    expect(screen.getAllByText('National Day')).toHaveLength(2);
    expect(years).toEqual([String(new Date().getFullYear())]);
  });
});
