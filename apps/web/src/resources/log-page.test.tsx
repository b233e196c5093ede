import { RecognitionRecord, type NavigationGroup } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { TestApp } from '../test/antd.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TabPaneContext } from '../hooks/use-tab-pane';
import { setLocale } from '../lib/i18n';
import { saveSession } from '../lib/session';
import { LogPage } from './log-page';

const RENDER_WAIT = { timeout: 5000 };

const navigation = (frame: string, fixedId: number, buttons: string[]): NavigationGroup[] => [
  {
    id: 6,
    key: 'ops',
    title: '运维',
    titleEn: 'Ops',
    icon: 'tool',
    children: [{ fixedId, index: frame, title: frame, titleEn: frame, sort: 1, badge: null, authorised: true, buttons } as NavigationGroup['children'][number]],
  },
];

const record = (id: number, personName: string, success: boolean) => ({
  id,
  recognizedAt: '2026-11-20T00:30:00.000Z',
  createdAt: '2026-11-20T00:30:01.000Z',
  snapshot: null,
  personName,
  personKind: 1,
  personId: 7,
  schoolId: 11,
  schoolIdLabel: '阳光幼儿园',
  deviceId: 5,
  deviceIdLabel: 'G3B0001',
  direction: 1,
  similarity: 93.5,
  temperature: 36.6,
  eventSerial: id,
  success,
  hidden: false,
});

interface Call {
  path: string;
  body: unknown;
}

/** Serves the page's calls: Search answers `rows`, Hide answers how many; records every call. */
function serve(rows: Record<string, unknown>[]): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ path: `${url.pathname}${url.search}`, body });
    const data = url.pathname.endsWith('/Search')
      ? { items: rows, hasMore: false, nextCursor: null, prevCursor: null, range: { from: '2026-11-16T16:00:00.000Z', to: null } }
      : url.pathname.endsWith('/Hide')
        ? { hidden: (body as { ids: number[] }).ids.length }
        : url.pathname.endsWith('/Options')
          ? []
          : { hideAmountColumns: false };
    return new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
  });
  return calls;
}

function renderLog(frame: 'identifySuccess' | 'identifyWarn', fixedId: number, buttons: string[]) {
  saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [fixedId] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['navigationTree', 't'], navigation(frame, fixedId, buttons));
  return render(
    <TestApp>
      <QueryClientProvider client={client}>
        <TabPaneContext.Provider value={{ index: frame, path: `/${frame}`, isActive: true, refresh: () => undefined }}>
          <LogPage def={RecognitionRecord} frame={frame} />
        </TabPaneContext.Provider>
      </QueryClientProvider>
    </TestApp>,
  );
}

describe('<LogPage> of recognition records', { timeout: 40_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it("reads its page's view, without a filter or column for the field the view fixes", async () => {
    const calls = serve([record(1, '王子涵', true)]);
    renderLog('identifySuccess', 609, ['hide']);
    expect(await screen.findByText('王子涵', undefined, RENDER_WAIT)).toBeTruthy();
    expect(calls.find((call) => call.path.includes('/api/RecognitionRecord/Search'))?.path).toContain('view=identifySuccess');
    for (const label of ['Name', 'Device', 'Direction', 'Person type']) expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    expect(screen.queryByText('Recognised')).toBeNull();
  });

  it('hides a row after confirmation, through Hide of the same view', async () => {
    const calls = serve([record(3, '李欣怡', false)]);
    renderLog('identifyWarn', 610, ['hide']);
    const row = (await screen.findByText('李欣怡', undefined, RENDER_WAIT)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Hide' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }, RENDER_WAIT));
    await waitFor(() => expect(calls.find((call) => call.path.includes('/Hide'))).toBeDefined(), RENDER_WAIT);
    const hide = calls.find((call) => call.path.includes('/Hide'))!;
    expect(hide.path).toContain('view=identifyWarn');
    expect(hide.body).toEqual({ ids: [3] });
  });

  it('offers no Hide without the button', async () => {
    serve([record(4, '张一诺', true)]);
    renderLog('identifySuccess', 609, []);
    const row = (await screen.findByText('张一诺', undefined, RENDER_WAIT)).closest('tr')!;
    expect(within(row).queryByRole('button', { name: 'Hide' })).toBeNull();
  });

  it('reads the newest rows again when Search is pressed with the same filters', async () => {
    const calls = serve([record(5, '赵子涵', true)]);
    renderLog('identifySuccess', 609, []);
    await screen.findByText('赵子涵', undefined, RENDER_WAIT);
    const searches = () => calls.filter((call) => call.path.includes('/api/RecognitionRecord/Search')).length;
    const before = searches();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches()).toBe(before + 1), RENDER_WAIT);
    // The answer is on screen again before the page goes away.
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull(), RENDER_WAIT);
    expect(screen.getByText('赵子涵')).toBeTruthy();
  });
});
