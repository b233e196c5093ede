import { TerminalConfig, type NavigationGroup, type VisibilityProbes } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestApp } from '../../test/antd.js';
import { TabPaneContext } from '../../hooks/use-tab-pane';
import { setLocale } from '../../lib/i18n';
import { saveSession } from '../../lib/session';
import { ResourcePage } from '../resource-page';
import { terminalConfigOverrides } from '.';

const RENDER_WAIT = { timeout: 5000 };

const tree: NavigationGroup[] = [
  {
    id: 6,
    key: 'ops',
    title: '运维',
    titleEn: 'Ops',
    icon: 'tool',
    children: [{ fixedId: 608, index: 'templateManage', title: '参数模板', titleEn: 'Parameter templates', sort: 1, badge: null, authorised: true, buttons: ['add', 'update', 'delete', 'export'] } as NavigationGroup['children'][number]],
  },
];

const templateRow = { id: 4, version: 1, name: '标准闸机参数', recognitionThreshold: 80, temperatureThreshold: 37.3, doorOpenSeconds: 3, volume: 60, workingHours: '06:30-18:30', enabled: true };

/** The server as the page sees it: one template, and the caller's probes. */
function stubServer(probes: Partial<VisibilityProbes>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
      if (url.pathname === '/api/TerminalConfig/Search') return envelope({ items: [templateRow], total: 1, totalIsCapped: false });
      if (url.pathname === '/api/User/GetVisibilityProbes') return envelope({ hideAmountColumns: false, isAgent: true, ...probes });
      if (url.pathname === '/api/User/GetLoginUserInfo') return envelope({ id: 1, loginName: 'u', name: 'U', type: 'agent' });
      if (url.pathname.endsWith('/Options')) return envelope([]);
      return new Response(JSON.stringify({ code: 404, message: 'not found', data: null }), { status: 404 });
    }),
  );
}

function renderTemplatePage() {
  saveSession({ token: 't', schoolName: '', userName: 'agent1', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [608] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['navigationTree', 't'], tree);
  return render(
    <TestApp>
      <QueryClientProvider client={client}>
        <TabPaneContext.Provider value={{ index: 'templateManage', path: '/templateManage', isActive: true, refresh: () => undefined }}>
          <ResourcePage def={TerminalConfig} frame="templateManage" overrides={terminalConfigOverrides} />
        </TabPaneContext.Provider>
      </QueryClientProvider>
    </TestApp>,
  );
}

describe('the parameter template page', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('offers no add, edit, apply or delete to a caller without canUpdateParamConfigs', async () => {
    stubServer({ canUpdateParamConfigs: false, canSetParamOptions: false });
    renderTemplatePage();
    expect(await screen.findByText('标准闸机参数', undefined, RENDER_WAIT)).toBeTruthy();
    // The probes arrive after the rows: wait for the page to settle on them.
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: /Add/ })).toBeNull(), RENDER_WAIT);
    expect(screen.queryByRole('button', { name: 'Apply to terminals' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('lets a caller without canSetParamOptions add a template, without the threshold fields', async () => {
    stubServer({ canUpdateParamConfigs: true, canSetParamOptions: false });
    renderTemplatePage();
    expect(await screen.findByText('标准闸机参数', undefined, RENDER_WAIT)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Apply to terminals' }, RENDER_WAIT)).toBeTruthy();
    (await screen.findByRole('button', { name: /Add/ }, RENDER_WAIT)).click();
    expect(await screen.findByLabelText('Volume', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.queryByLabelText('Recognition threshold')).toBeNull();
    expect(screen.queryByLabelText('Fever threshold (°C)')).toBeNull();
  });
});
