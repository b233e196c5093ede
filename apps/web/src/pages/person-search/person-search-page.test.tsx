import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestApp } from '../../test/antd.js';
import { TabPaneContext } from '../../hooks/use-tab-pane';
import { setLocale } from '../../lib/i18n';
import { saveSession } from '../../lib/session';
import PersonSearchPage from './person-search-page';

const RENDER_WAIT = { timeout: 5000 };

const hit = (id: number, name: string, matched: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  schoolId: 2,
  schoolName: 'Sunshine Kindergarten',
  phoneNum: null,
  cardNo: null,
  studentNo: null,
  matched,
  ...extra,
});

/** The server as the page sees it: a search answering two groups, and the parent's row for its drawer. */
function stubServer() {
  const searches: string[] = [];
  const reads: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
      if (url.pathname === '/api/Person/Search') {
        searches.push(url.searchParams.get('q') ?? '');
        return envelope({
          groups: [
            { family: 'Student', items: [hit(11, 'Wang Xiaoming', 'name', { studentNo: 'S001' })], hasMore: false },
            { family: 'Parent', items: [hit(21, 'Wang Da', 'phoneNum', { phoneNum: '13812345678' })], hasMore: true },
            { family: 'Teacher', items: [], hasMore: false },
          ],
        });
      }
      if (url.pathname === '/api/Parent/Get') {
        reads.push(`${url.searchParams.get('id')}:${url.searchParams.get('view')}`);
        return envelope({ id: 21, version: 1, name: 'Wang Da', phoneNum: '13812345678', schoolId: 2, schoolIdLabel: 'Sunshine Kindergarten', studentIds: [], studentIdsLabel: [], enabled: true });
      }
      if (url.pathname === '/api/User/GetVisibilityProbes') return envelope({ hideAmountColumns: false, isAgent: false, canShowOffline: true });
      if (url.pathname === '/api/User/GetLoginUserInfo') return envelope({ id: 1, loginName: 'u', name: 'U', type: 'company' });
      if (url.pathname.endsWith('/Options')) return envelope([]);
      return new Response(JSON.stringify({ code: 404, message: 'not found', data: null }), { status: 404 });
    }),
  );
  return { searches, reads };
}

function renderPage() {
  saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [201] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <TestApp>
      <QueryClientProvider client={client}>
        <TabPaneContext.Provider value={{ index: 'personSearch', path: '/personSearch', isActive: true, refresh: () => undefined }}>
          <PersonSearchPage />
        </TabPaneContext.Provider>
      </QueryClientProvider>
    </TestApp>,
  );
}

describe('the person search page', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows the hits grouped by family, leaves out empty groups, and opens a hit in its family drawer', async () => {
    const { searches, reads } = stubServer();
    renderPage();
    const box = screen.getByPlaceholderText('Name, mobile (4+ digits), card no. or student no.');
    fireEvent.change(box, { target: { value: ' Wang ' } });
    const parents = await screen.findByTestId('person-group-Parent', undefined, RENDER_WAIT);
    expect(searches).toEqual(['Wang']);
    expect(within(parents).getByText('Wang Da')).toBeTruthy();
    expect(within(parents).getByText('first 1')).toBeTruthy();
    expect(within(parents).getByText('Mobile', { selector: '.ant-tag' })).toBeTruthy();
    expect(within(screen.getByTestId('person-group-Student')).getByText('S001')).toBeTruthy();
    expect(screen.queryByTestId('person-group-Teacher')).toBeNull();
    within(parents).getByRole('button', { name: 'Open' }).click();
    await vi.waitFor(() => expect(reads).toEqual(['21:parentUser']), RENDER_WAIT);
    expect(await screen.findByDisplayValue('13812345678', undefined, RENDER_WAIT)).toBeTruthy();
  });
});
