import { Terminal, type NavigationGroup } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestApp } from '../../test/antd.js';
import { TabPaneContext } from '../../hooks/use-tab-pane';
import { setLocale } from '../../lib/i18n';
import { saveSession } from '../../lib/session';
import { ResourcePage } from '../resource-page';
import { terminalOverrides } from '.';

const RENDER_WAIT = { timeout: 5000 };

const tree: NavigationGroup[] = [
  {
    id: 6,
    key: 'ops',
    title: '运维',
    titleEn: 'Ops',
    icon: 'tool',
    children: [{ fixedId: 601, index: 'equipmentManage', title: '终端管理', titleEn: 'Terminals', sort: 1, badge: null, authorised: true, buttons: ['update'] } as NavigationGroup['children'][number]],
  },
];

const terminalRow = (secretIssuedAt: string | null) => ({
  id: 7,
  version: 1,
  deviceId: 3,
  deviceIdLabel: 'G3T0001',
  serialNumber: 'G3T0001',
  schoolId: 2,
  schoolIdLabel: 'Sunshine Kindergarten',
  online: true,
  lastSeenAt: '2026-03-02T01:00:00.000Z',
  offlineAt: '2026-03-02T01:01:30.000Z',
  secretIssuedAt,
  enabled: true,
});

/** The server as the page sees it: one terminal, and IssueSecret answering a new secret. */
function stubServer(secretIssuedAt: string | null) {
  const issued: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
      if (url.pathname === '/api/Terminal/Search') return envelope({ items: [terminalRow(secretIssuedAt)], total: 1, totalIsCapped: false });
      if (url.pathname === '/api/Terminal/IssueSecret') {
        issued.push(JSON.parse(String(init?.body)));
        return envelope({ secret: 'c2VjcmV0LXNob3duLW9uY2Utb25seS1oZXJlLXRvLWNvcHk' });
      }
      if (url.pathname === '/api/User/GetVisibilityProbes') return envelope({ hideAmountColumns: false, isAgent: false, canShowOffline: true });
      if (url.pathname === '/api/User/GetLoginUserInfo') return envelope({ id: 1, loginName: 'u', name: 'U', type: 'company' });
      if (url.pathname.endsWith('/Options')) return envelope([]);
      return new Response(JSON.stringify({ code: 404, message: 'not found', data: null }), { status: 404 });
    }),
  );
  return { issued };
}

function renderTerminalPage() {
  saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [601] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['navigationTree', 't'], tree);
  return render(
    <TestApp>
      <QueryClientProvider client={client}>
        <TabPaneContext.Provider value={{ index: 'equipmentManage', path: '/equipmentManage', isActive: true, refresh: () => undefined }}>
          <ResourcePage def={Terminal} frame="equipmentManage" overrides={terminalOverrides} />
        </TabPaneContext.Provider>
      </QueryClientProvider>
    </TestApp>,
  );
}

describe('the terminal page', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('issues a first secret without asking and shows it once, with a copy button', async () => {
    const { issued } = stubServer(null);
    renderTerminalPage();
    expect(await screen.findByText('Online', undefined, RENDER_WAIT)).toBeTruthy();
    (await screen.findByRole('button', { name: 'Issue secret' }, RENDER_WAIT)).click();
    const shown = await screen.findByTestId('revealed-value', undefined, RENDER_WAIT);
    expect(shown.textContent).toContain('c2VjcmV0LXNob3duLW9uY2Utb25seS1oZXJlLXRvLWNvcHk');
    expect(within(shown).getByRole('button', { name: /copy/i })).toBeTruthy();
    expect(issued).toEqual([{ id: 7 }]);
    screen.getByRole('button', { name: 'I have copied it' }).click();
    await vi.waitFor(() => expect(screen.queryByTestId('revealed-value')).toBeNull(), RENDER_WAIT);
  });

  it('asks before rotating a secret already issued, and issues nothing when cancelled', async () => {
    const { issued } = stubServer('2026-03-01T08:00:00.000Z');
    renderTerminalPage();
    (await screen.findByRole('button', { name: 'Issue secret' }, RENDER_WAIT)).click();
    expect(await screen.findByText(/The old secret stops working at once/, undefined, RENDER_WAIT)).toBeTruthy();
    screen.getByRole('button', { name: 'Cancel' }).click();
    await vi.waitFor(() => expect(screen.queryByText(/The old secret stops working at once/)).toBeNull(), RENDER_WAIT);
    expect(issued).toEqual([]);
  });
});
