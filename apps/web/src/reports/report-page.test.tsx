import { DEFAULT_PAGE_SIZE, DeviceStatistics, WarehouseStatistics, type NavigationGroup, type ReportDef } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { TestApp } from '../test/antd.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TabPaneContext } from '../hooks/use-tab-pane';
import { setLocale } from '../lib/i18n';
import { saveSession } from '../lib/session';
import { ReportPage } from './report-page';

// ECharts draws on a canvas jsdom lacks: the test checks the option the page hands it.
const chart = vi.hoisted(() => ({ setOption: vi.fn(), resize: vi.fn(), dispose: vi.fn() }));
vi.mock('./echarts-setup', () => ({ echarts: { init: () => chart } }));

const RENDER_WAIT = { timeout: 5000 };

const treeWith = (index: string, fixedId: number, buttons: string[]): NavigationGroup[] => [
  {
    id: 5,
    key: 'inventory',
    title: '库存',
    titleEn: 'Inventory',
    icon: 'database',
    children: [{ fixedId, index, title: index, titleEn: index, sort: 1, badge: null, authorised: true, buttons } as NavigationGroup['children'][number]],
  },
];

/** The server as the page sees it through fetch: answers Search and GetSummary, records their queries. */
function stubServer(answers: { search: unknown; summary: unknown }) {
  const calls: { path: string; query: URLSearchParams; body?: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
      calls.push({ path: url.pathname, query: url.searchParams, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/Search')) return envelope(answers.search);
      if (url.pathname.endsWith('/GetSummary')) return envelope(answers.summary);
      if (url.pathname === '/api/User/GetVisibilityProbes') return envelope({ hideAmountColumns: false, isAgent: false });
      if (url.pathname.endsWith('/Options')) return envelope([]);
      return new Response(JSON.stringify({ code: 404, message: 'not found', data: null }), { status: 404 });
    }),
  );
  return calls;
}

function renderReport(def: ReportDef, frame: string, fixedId: number, buttons: string[]) {
  saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [fixedId] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['navigationTree', 't'], treeWith(frame, fixedId, buttons));
  return render(
    <TestApp>
      <QueryClientProvider client={client}>
        <TabPaneContext.Provider value={{ index: frame, path: `/${frame}`, isActive: true, refresh: () => undefined }}>
          <ReportPage def={def} frame={frame} />
        </TabPaneContext.Provider>
      </QueryClientProvider>
    </TestApp>,
  );
}

describe('<ReportPage>', { timeout: 30_000 }, () => {
  beforeEach(() => {
    setLocale('en');
    chart.setOption.mockClear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renders the groups and the totals row of the answer, and draws the chart from the summary', async () => {
    const rows = [
      { deviceClassCode: 'GATE-G3', deviceClassCodeLabel: 'Gate G3', inStock: 1200, delivered: 3, installed: 40, inRepair: 2, scrapped: 0, total: 1245 },
      { deviceClassCode: 'NVR-N16', deviceClassCodeLabel: 'NVR N16', inStock: 0, delivered: 8, installed: 0, inRepair: 0, scrapped: 1, total: 9 },
    ];
    const totals = { inStock: 1200, delivered: 11, installed: 40, inRepair: 2, scrapped: 1, total: 1254 };
    const calls = stubServer({ search: { items: rows, total: 2, totals }, summary: { items: rows, totals } });
    renderReport(DeviceStatistics, 'productStatistics', 506, ['export']);

    expect(await screen.findByText('Gate G3', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.getByText('1,245')).toBeTruthy();
    const totalsRow = document.querySelector('.report-totals') as HTMLElement;
    expect(within(totalsRow).getByText('Total')).toBeTruthy();
    expect(within(totalsRow).getByText('1,254')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();

    await waitFor(() => expect(chart.setOption).toHaveBeenCalled(), RENDER_WAIT);
    const option = chart.setOption.mock.calls.at(-1)![0];
    expect(option.xAxis.data).toEqual(['Gate G3', 'NVR N16']);
    expect(option.series.map((s: { name: string }) => s.name)).toEqual(['In stock', 'Delivered', 'Installed', 'In repair', 'Scrapped']);
    expect(option.series[0].data).toEqual([1200, 0]);
    expect(calls.find((call) => call.path.endsWith('/GetSummary'))!.query.get('groupBy')).toBe('deviceClassCode');
  });

  it('says when the number of groups is the database estimate or past the count cap', async () => {
    const rows = [{ deviceClassCode: 'GATE-G3', deviceClassCodeLabel: 'Gate G3', inStock: 1, delivered: 0, installed: 0, inRepair: 0, scrapped: 0, total: 1 }];
    const totals = { inStock: 38_000, delivered: 0, installed: 0, inRepair: 0, scrapped: 0, total: 38_000 };
    stubServer({ search: { items: rows, total: 38_000, totalIsCapped: false, totalIsEstimate: true, hasMore: true, totals }, summary: { items: rows, totals } });
    const estimated = renderReport(DeviceStatistics, 'productStatistics', 506, []);
    expect(await screen.findByText('about 38,000 groups', undefined, RENDER_WAIT)).toBeTruthy();
    estimated.unmount();
    vi.unstubAllGlobals();

    stubServer({ search: { items: rows, total: 10_000, totalIsCapped: true, totalIsEstimate: false, hasMore: true, totals }, summary: { items: rows, totals } });
    renderReport(DeviceStatistics, 'productStatistics', 506, []);
    expect(await screen.findByText('10,000+ groups', undefined, RENDER_WAIT)).toBeTruthy();
  });

  it('lets the reader page past a floor while more groups follow', async () => {
    const rows = [{ deviceClassCode: 'GATE-G3', deviceClassCodeLabel: 'Gate G3', inStock: 1, delivered: 0, installed: 0, inRepair: 0, scrapped: 0, total: 1 }];
    const totals = { inStock: 1, delivered: 0, installed: 0, inRepair: 0, scrapped: 0, total: 1 };
    // What the server answers where counting costs too much: "more than" the rows this page proves.
    stubServer({ search: { items: rows, total: DEFAULT_PAGE_SIZE, totalIsCapped: true, totalIsEstimate: false, hasMore: true, totals }, summary: { items: rows, totals } });
    renderReport(DeviceStatistics, 'productStatistics', 506, []);
    expect(await screen.findByText(`${DEFAULT_PAGE_SIZE}+ groups`, undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.getByTitle('2')).toBeTruthy();
  });

  it('sends the period and grain, and draws every period of the range', async () => {
    const rows = [{ period: '2026-03-01', agentId: 4, agentIdLabel: 'Agent East', stocked: 5, shipped: 2, installed: 1 }];
    const totals = { stocked: 5, shipped: 2, installed: 1 };
    const calls = stubServer({ search: { items: rows, total: 1, totals }, summary: { items: [{ period: '2026-03-01', stocked: 5, shipped: 2, installed: 1 }], totals } });
    renderReport(WarehouseStatistics, 'warehousingStatistics', 508, []);

    expect(await screen.findByText('Agent East', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.getAllByText('2026-03').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /Export/ })).toBeNull();
    const search = calls.find((call) => call.path.endsWith('/Search'))!.body as Record<string, unknown>;
    expect(search.grain).toBe('month');
    expect(search.dayFrom).toMatch(/^\d{4}-\d{2}-01$/);
    await waitFor(() => expect(chart.setOption).toHaveBeenCalled(), RENDER_WAIT);
    const option = chart.setOption.mock.calls.at(-1)![0];
    expect(option.xAxis.data).toHaveLength(12);
    // The range ends today: March 2026 is on the axis while it lies within the last twelve months.
    const march = option.xAxis.data.indexOf('2026-03');
    expect(option.series[0].data.filter((n: number) => n > 0)).toEqual(march >= 0 ? [5] : []);
    if (march >= 0) expect(option.series[0].data[march]).toBe(5);
  });
});
