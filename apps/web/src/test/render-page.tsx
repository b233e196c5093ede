/**
 * The shared harness of web page tests: a page rendered as the shell renders it — in a tab pane
 * that follows the address bar, under a router, a query client and antd's context, with a session
 * holding the page's frame — and a stub server answering the API through `fetch`.
 */
import { PREFERENCE_PATHS, type NavigationGroup, type PagePreferences } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { vi } from 'vitest';
import { TabPaneContext } from '../hooks/use-tab-pane';
import { saveSession } from '../lib/session';
import { TestApp } from './antd';

/** One stubbed call: the request's URL and JSON body, answering the envelope's data (or a Response of its own). */
export type StubHandler = (request: { url: URL; body: unknown }) => unknown;

export interface StubServer {
  /** Every call made, in order: its path, path with query (`url`), and JSON body. */
  calls: { path: string; url: string; query: URLSearchParams; body: unknown }[];
  /** The preferences the stub keeps per page, as the server would. */
  preferences: Map<string, PagePreferences>;
}

const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });

/**
 * Stubs `fetch` with the given handlers by path; the calls every page makes (probes, login user,
 * options lists, preferences) have defaults. Unknown paths answer 404.
 * @example const server = stubServer({ '/api/School/Search': () => ({ items: [], total: 0, totalIsCapped: false }) });
 */
export function stubServer(handlers: Record<string, StubHandler>, { userType = 'company' } = {}): StubServer {
  const server: StubServer = { calls: [], preferences: new Map() };
  const preferencesOf = (page: string) => server.preferences.get(page) ?? { page, table: null, views: [] };
  const defaults: Record<string, StubHandler> = {
    '/api/User/GetVisibilityProbes': () => ({ hideAmountColumns: false, isAgent: false, canShowOffline: true }),
    '/api/User/GetLoginUserInfo': () => ({ id: 1, loginName: 'u', name: 'U', type: userType }),
    [PREFERENCE_PATHS.get]: ({ url }) => preferencesOf(url.searchParams.get('page') ?? ''),
    [PREFERENCE_PATHS.saveTable]: ({ body }) => {
      const { page, table } = body as { page: string; table: PagePreferences['table'] };
      server.preferences.set(page, { ...preferencesOf(page), table });
      return preferencesOf(page);
    },
    [PREFERENCE_PATHS.resetTable]: ({ body }) => {
      const { page } = body as { page: string };
      server.preferences.set(page, { ...preferencesOf(page), table: null });
      return preferencesOf(page);
    },
    [PREFERENCE_PATHS.saveView]: ({ body }) => {
      const { page, view } = body as { page: string; view: PagePreferences['views'][number] };
      const current = preferencesOf(page);
      server.preferences.set(page, { ...current, views: [...current.views.filter((one) => one.name !== view.name), view] });
      return preferencesOf(page);
    },
    [PREFERENCE_PATHS.deleteView]: ({ body }) => {
      const { page, name } = body as { page: string; name: string };
      const current = preferencesOf(page);
      server.preferences.set(page, { ...current, views: current.views.filter((one) => one.name !== name) });
      return preferencesOf(page);
    },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      server.calls.push({ path: url.pathname, url: `${url.pathname}${url.search}`, query: url.searchParams, body });
      const handler = handlers[url.pathname] ?? defaults[url.pathname] ?? (url.pathname.endsWith('/Options') ? () => [] : undefined);
      if (!handler) return new Response(JSON.stringify({ code: 404, message: 'not found', data: null }), { status: 404 });
      const answer = handler({ url, body });
      return answer instanceof Response ? answer : envelope(answer);
    }),
  );
  return server;
}

/** A menu of one group holding the page's frame with the given buttons. */
export function treeWithFrame(frame: { fixedId: number; index: string; title?: string; titleEn?: string }, buttons: readonly string[]): NavigationGroup[] {
  return [
    {
      id: 1,
      key: 'group',
      title: '分组',
      titleEn: 'Group',
      icon: 'home',
      children: [
        { fixedId: frame.fixedId, index: frame.index, title: frame.title ?? frame.index, titleEn: frame.titleEn ?? frame.index, sort: 1, badge: null, authorised: true, buttons } as NavigationGroup['children'][number],
      ],
    },
  ];
}

export interface PageHarness {
  client: QueryClient;
  /** Where the router is now (path and query). */
  location: () => string;
  /** Moves the router as a link would (a path), or as the back button would (-1). */
  navigate: (to: string | number) => void;
  unmount: () => void;
}

export interface RenderPageOptions {
  frame: { fixedId: number; index: string };
  /** Buttons the caller holds on the frame. */
  buttons?: readonly string[];
  /** The address the page opens at, e.g. `/schoolManage?schoolName=Sun` (default: the frame's path). */
  path?: string;
  /** A client shared with an earlier render (a second browser context gets a new one). */
  client?: QueryClient;
}

/**
 * Renders a page in its tab pane, as the shell would.
 * @example const page = renderPage(<ResourcePage def={School} frame="schoolManage" />, { frame: { fixedId: 301, index: 'schoolManage' }, buttons: ['add'] });
 */
export function renderPage(ui: ReactNode, { frame, buttons = [], path, client: givenClient }: RenderPageOptions): PageHarness {
  saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [frame.fixedId] });
  const client = givenClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['navigationTree', 't'], treeWithFrame(frame, buttons));
  const probe: { location: string; navigate: NavigateFunction | null } = { location: '', navigate: null };

  function TabPane({ children }: { children: ReactNode }) {
    const location = useLocation();
    probe.location = `${location.pathname}${location.search}`;
    probe.navigate = useNavigate();
    const isActive = location.pathname === `/${frame.index}`;
    return <TabPaneContext.Provider value={{ index: frame.index, path: probe.location, isActive, refresh: () => undefined }}>{children}</TabPaneContext.Provider>;
  }

  const rendered = render(
    <TestApp>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path ?? `/${frame.index}`]}>
          <TabPane>{ui}</TabPane>
        </MemoryRouter>
      </QueryClientProvider>
    </TestApp>,
  );
  return {
    client,
    location: () => probe.location,
    navigate: (to) => {
      if (typeof to === 'number') void probe.navigate!(to);
      else void probe.navigate!(to);
    },
    unmount: rendered.unmount,
  };
}
