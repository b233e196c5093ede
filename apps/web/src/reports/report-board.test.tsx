import { DataCenterAppActivity, DataCenterPayments, frameOf, reportsOfFrame, type NavigationGroup } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TabPaneContext } from '../hooks/use-tab-pane';
import { setLocale } from '../lib/i18n';
import { saveSession } from '../lib/session';
import { TestApp } from '../test/antd.js';
import { ReportBoard } from './report-board';

// ECharts draws on a canvas jsdom lacks: the test checks the options the panels hand it. The hook is
// replaced rather than the lazily imported module: two panels importing it at once reached the real one.
const chart = vi.hoisted(() => ({ setOption: vi.fn(), resize: vi.fn(), dispose: vi.fn() }));
vi.mock('./use-echart', () => ({ useEChart: () => ({ boxRef: { current: null }, chart }) }));

const RENDER_WAIT = { timeout: 5000 };
const FRAME = 'DataCenter';
const FIXED_ID = frameOf(FRAME).fixedId;

type Call = { path: string; query: URLSearchParams };

/** The server as the page sees it: each report's GetSummary answers by the groupBy asked. */
function stubServer(answers: Record<string, Record<string, unknown>>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
      calls.push({ path: url.pathname, query: url.searchParams });
      if (url.pathname.endsWith('/GetSummary')) {
        const report = url.pathname.split('/')[2]!;
        return envelope(answers[`${report}:${url.searchParams.get('groupBy')}`] ?? { items: [], totals: {} });
      }
      if (url.pathname === '/api/User/GetVisibilityProbes') return envelope({ hideAmountColumns: false, isAgent: false });
      if (url.pathname.endsWith('/Options')) return envelope([]);
      return new Response(JSON.stringify({ code: 404, message: 'not found', data: null }), { status: 404 });
    }),
  );
  return calls;
}

function renderBoard() {
  saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [FIXED_ID] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree: NavigationGroup[] = [
    { id: 1, key: 'home', title: '首页', titleEn: 'Home', icon: 'home', children: [{ fixedId: FIXED_ID, index: FRAME, title: FRAME, titleEn: FRAME, sort: 1, badge: null, authorised: true, buttons: ['export'] } as NavigationGroup['children'][number]] },
  ];
  client.setQueryData(['navigationTree', 't'], tree);
  return render(
    <TestApp>
      <QueryClientProvider client={client}>
        <TabPaneContext.Provider value={{ index: FRAME, path: `/${FRAME}`, isActive: true, refresh: () => undefined }}>
          <ReportBoard defs={[DataCenterPayments, DataCenterAppActivity]} frame={FRAME} />
        </TabPaneContext.Provider>
      </QueryClientProvider>
    </TestApp>,
  );
}

const panelOf = (name: string) => document.querySelector(`[data-report="${name}"]`) as HTMLElement;
/** The last option a chart was given whose series are of the given type. */
const lastOptionOf = (type: string) => chart.setOption.mock.calls.map((call) => call[0]).filter((option) => option.series[0]?.type === type).at(-1);

describe('<ReportBoard> (DataCenter)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    setLocale('en');
    chart.setOption.mockClear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('declares four trends on the DataCenter page', () => {
    expect(reportsOfFrame(FRAME).map((def) => def.name)).toEqual(['DataCenterRecognitions', 'DataCenterPayments', 'DataCenterAppActivity', 'DataCenterDevices']);
  });

  it('shows each trend as a chart and its table of days, and switches a panel to a pie per school with its table', async () => {
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const days = { items: [{ period: today, payments: 3, paid: 12_345, refunds: 1, refunded: 2_000, net: 10_345 }], totals: { payments: 3, paid: 12_345, refunds: 1, refunded: 2_000, net: 10_345 } };
    const schools = {
      items: [
        { schoolId: 7, schoolIdLabel: 'East School', payments: 2, paid: 10_000, refunds: 1, refunded: 2_000, net: 8_000 },
        { schoolId: 9, schoolIdLabel: 'West School', payments: 1, paid: 2_345, refunds: 0, refunded: 0, net: 2_345 },
      ],
      totals: days.totals,
    };
    const activity = { items: [{ period: today, active: 5, newParents: 2, returning: 3 }], totals: { active: 5, newParents: 2, returning: 3 } };
    const calls = stubServer({ 'DataCenterPayments:period': days, 'DataCenterPayments:schoolId': schools, 'DataCenterAppActivity:period': activity });
    renderBoard();

    const payments = await waitFor(() => {
      const panel = panelOf('DataCenterPayments');
      expect(within(panel).getByText(today)).toBeTruthy();
      return panel;
    }, RENDER_WAIT);
    expect(within(payments).getAllByText('123.45').length).toBe(2);
    expect(within(payments.querySelector('.report-totals') as HTMLElement).getByText('Total')).toBeTruthy();
    // The last 30 days ending today, by day, for every panel.
    const first = calls.find((call) => call.path === '/api/DataCenterPayments/GetSummary')!;
    expect(first.query.get('dayTo')).toBe(today);
    expect(first.query.get('dayFrom')).toBe(new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10));
    expect(first.query.get('grain')).toBe('day');

    // Drawn as declared: payments in bars over the 30 days, activity in straight lines.
    await waitFor(() => expect(chart.setOption.mock.calls.map((call) => call[0].series[0]?.type)).toContain('line'), RENDER_WAIT);
    expect(lastOptionOf('line').series.every((series: { smooth: boolean }) => series.smooth === false)).toBe(true);
    const bars = lastOptionOf('bar');
    expect(bars.xAxis.data).toHaveLength(30);
    expect(bars.series[0].data.at(-1)).toBe(123.45);

    fireEvent.click(within(payments).getByText('Pie'));
    await waitFor(() => expect(within(payments).getByText('East School')).toBeTruthy(), RENDER_WAIT);
    expect(within(payments).getByText('West School')).toBeTruthy();
    expect(within(payments).queryByText(today)).toBeNull();
    expect(calls.some((call) => call.path === '/api/DataCenterPayments/GetSummary' && call.query.get('groupBy') === 'schoolId')).toBe(true);
    await waitFor(() => expect(lastOptionOf('pie')).toBeTruthy(), RENDER_WAIT);
    expect(lastOptionOf('pie').series[0].data).toEqual([
      { name: 'East School', value: 100 },
      { name: 'West School', value: 23.45 },
    ]);
  });

  it('shares the active parents out between new and returning in the pie, keeping the table of days', async () => {
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const activity = { items: [{ period: today, active: 5, newParents: 2, returning: 3 }], totals: { active: 5, newParents: 2, returning: 3 } };
    stubServer({ 'DataCenterAppActivity:period': activity });
    renderBoard();
    const panel = await waitFor(() => {
      const found = panelOf('DataCenterAppActivity');
      expect(within(found).getByText(today)).toBeTruthy();
      return found;
    }, RENDER_WAIT);
    chart.setOption.mockClear();
    fireEvent.click(within(panel).getByText('Pie'));
    await waitFor(() => expect(lastOptionOf('pie')).toBeTruthy(), RENDER_WAIT);
    expect(lastOptionOf('pie').series[0].data.map((slice: { name: string; value: number }) => [slice.name, slice.value])).toEqual([
      ['New', 2],
      ['Returning', 3],
    ]);
    expect(within(panel).getByText(today)).toBeTruthy();
  });
});
