import { School, SchoolClass, type NavigationGroup } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { TestApp } from '../test/antd.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TabPaneContext } from '../hooks/use-tab-pane';
import { setLocale } from '../lib/i18n';
import { saveSession } from '../lib/session';
import { ResourcePage } from './resource-page';
import type { ResourceOverrides } from './resource-overrides';
import { schoolOverrides } from './school';

// antd's Table renders slowly in jsdom when the whole suite runs in parallel; the default 1 s is tight.
const RENDER_WAIT = { timeout: 5000 };

const treeWith = (buttons: string[]): NavigationGroup[] => [
  {
    id: 3,
    key: 'sales',
    title: '销售',
    titleEn: 'Sales',
    icon: 'shop',
    children: [{ fixedId: 301, index: 'schoolManage', title: '学校管理', titleEn: 'Schools', sort: 1, badge: null, authorised: true, buttons } as NavigationGroup['children'][number]],
  },
];

const schoolRow = {
  id: 11,
  version: 2,
  schoolName: 'Sunshine Kindergarten',
  province: '浙江省',
  city: '杭州市',
  area: '西湖区',
  schoolAddress: '文三路 90 号',
  schoolType: 1,
  licenseKeyRequired: 0,
  state: 1,
  isDirect: false,
  agentId: 5,
  agentIdLabel: 'Agent East',
  createdAt: '2024-05-01T02:30:00.000Z',
};

/** The server as the page sees it through fetch: answers by path, records the Search bodies. */
function stubServer({ totalIsCapped = false, userType = 'company' } = {}) {
  const searches: unknown[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
    if (url.pathname === '/api/School/Search') {
      searches.push({ view: url.searchParams.get('view'), body: JSON.parse(String(init?.body)) });
      return envelope({ items: [schoolRow], total: totalIsCapped ? 10_000 : 1, totalIsCapped });
    }
    if (url.pathname === '/api/SchoolClass/Search') {
      searches.push({ view: url.searchParams.get('view'), body: JSON.parse(String(init?.body)) });
      return envelope({ items: [{ id: 3, version: 1, schoolId: 11, grade: 2, className: 'Sunflower class' }], total: 1, totalIsCapped: false });
    }
    if (url.pathname === '/api/User/GetVisibilityProbes') return envelope({ hideAmountColumns: false, isAgent: false });
    if (url.pathname === '/api/User/GetLoginUserInfo') return envelope({ id: 1, loginName: 'u', name: 'U', type: userType });
    if (url.pathname.endsWith('/Options')) return envelope([]);
    return new Response(JSON.stringify({ code: 404, message: 'not found', data: null }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { searches };
}

function renderSchoolPage(buttons: string[], overrides?: ResourceOverrides) {
  saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [301] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['navigationTree', 't'], treeWith(buttons));
  return render(
    <TestApp>
      <QueryClientProvider client={client}>
        <TabPaneContext.Provider value={{ index: 'schoolManage', path: '/schoolManage', isActive: true, refresh: () => undefined }}>
          <ResourcePage def={School} frame="schoolManage" overrides={overrides} />
        </TabPaneContext.Provider>
      </QueryClientProvider>
    </TestApp>,
  );
}

describe('<ResourcePage>', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('renders the rows Search answers and sends the search defaults as no filters', async () => {
    const { searches } = stubServer();
    renderSchoolPage(['update', 'export']);
    expect(await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.getByText('Agent East')).toBeTruthy();
    expect(screen.getByText('Kindergarten')).toBeTruthy();
    expect(searches[0]).toEqual({ view: 'schoolManage', body: { pageIndex: 1, pageSize: 20 } });
  });

  it('removes the buttons whose permission value is absent', async () => {
    stubServer();
    renderSchoolPage(['update', 'export']);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    expect(screen.queryByRole('button', { name: /^Add$/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete selected/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('asks before exporting when more rows match than the count shows', async () => {
    stubServer({ totalIsCapped: true });
    renderSchoolPage(['export']);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    screen.getByRole('button', { name: /Export/ }).click();
    expect(await screen.findByText(/More than 10,000 rows match; the export holds at most the first 100,000/, undefined, RENDER_WAIT)).toBeTruthy();
  });

  it('shows Add for a caller holding it', async () => {
    stubServer();
    renderSchoolPage(['add']);
    await waitFor(() => expect(screen.getByRole('button', { name: /Add/ })).toBeTruthy(), RENDER_WAIT);
  });

  it("leaves a school's owners out of a seller's form but shows them in the table", async () => {
    stubServer({ userType: 'sales' });
    renderSchoolPage(['add'], schoolOverrides);
    expect(await screen.findByText('Agent East', undefined, RENDER_WAIT)).toBeTruthy();
    const add = await screen.findByRole('button', { name: /Add/ }, RENDER_WAIT);
    add.click();
    const drawer = await screen.findByRole('dialog', undefined, RENDER_WAIT);
    await waitFor(() => expect(within(drawer).getByText('School name')).toBeTruthy(), RENDER_WAIT);
    expect(within(drawer).queryByText('Agent')).toBeNull();
    expect(within(drawer).queryByText('Sales team')).toBeNull();
  });

  it("lists a school's classes as its drawer tab does: fixed to the school, without a school column", async () => {
    const { searches } = stubServer();
    saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [301] });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(['navigationTree', 't'], treeWith(['update']));
    render(
      <TestApp>
        <QueryClientProvider client={client}>
          <TabPaneContext.Provider value={{ index: 'schoolManage', path: '/schoolManage', isActive: true, refresh: () => undefined }}>
            <ResourcePage def={SchoolClass} frame="schoolManage" fixedValues={{ schoolId: 11 }} isEmbedded />
          </TabPaneContext.Provider>
        </QueryClientProvider>
      </TestApp>,
    );
    expect(await screen.findByText('Sunflower class', undefined, RENDER_WAIT)).toBeTruthy();
    expect(searches).toContainEqual({ view: 'schoolManage', body: { pageIndex: 1, pageSize: 20, schoolId: 11 } });
    expect(screen.queryByRole('columnheader', { name: 'School' })).toBeNull();
  });
});
