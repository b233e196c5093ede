import { PREFERENCE_PATHS, School, SchoolClass } from '@campus/contract';
import type { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { renderPage, stubServer } from '../../test/render-page';
import { ResourcePage } from './resource-page';
import type { ResourceOverrides } from '../resource-overrides';
import { schoolModule } from '../school';

// antd's Table renders slowly in jsdom when the whole suite runs in parallel; the default 1 s is tight.
const RENDER_WAIT = { timeout: 5000 };
const JOURNEY_WAIT = { timeout: 10_000 };

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

/** The server as the page sees it: School and SchoolClass searches answered, their bodies recorded. */
function stubSchoolServer({ totalIsCapped = false, totalIsEstimate = false, userType = 'company', failSearches = 0 } = {}) {
  const searches: unknown[] = [];
  const toggles: unknown[] = [];
  let failuresLeft = failSearches;
  const server = stubServer(
    {
      '/api/School/Search': ({ url, body }) => {
        searches.push({ view: url.searchParams.get('view'), body });
        if (failuresLeft-- > 0) return new Response(JSON.stringify({ code: 500, message: 'internal server error', data: { requestId: 'r1' } }), { status: 500 });
        if (totalIsEstimate) return { items: [schoolRow], total: 37_000, totalIsCapped, totalIsEstimate, hasMore: true };
        return { items: [schoolRow], total: totalIsCapped ? 10_000 : 1, totalIsCapped, totalIsEstimate, hasMore: totalIsCapped };
      },
      '/api/SchoolClass/Search': ({ url, body }) => {
        searches.push({ view: url.searchParams.get('view'), body });
        return { items: [{ id: 3, version: 1, schoolId: 11, grade: 2, className: 'Sunflower class' }], total: 1, totalIsCapped: false };
      },
      '/api/School/UpdateState': ({ body }) => {
        toggles.push(body);
        return { updated: 1 };
      },
    },
    { userType },
  );
  return { ...server, searches, toggles };
}

const SCHOOL_FRAME = { fixedId: 301, index: 'schoolManage' };

/** The column titles of the table, in order (a header's accessible name also holds its resize handle). */
const headerTitles = () => screen.queryAllByRole('columnheader').map((header) => header.textContent ?? '');

/** The filter bar's school name box (the column header shares its label). */
const nameFilter = () => document.getElementById('filter-schoolManage-School_schoolName') as HTMLInputElement;

function renderSchoolPage(buttons: string[], overrides?: ResourceOverrides, options: { path?: string; client?: QueryClient } = {}) {
  return renderPage(<ResourcePage def={School} frame="schoolManage" overrides={overrides} />, { frame: SCHOOL_FRAME, buttons, ...options });
}

describe('<ResourcePage>', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('renders the rows Search answers and sends the search defaults as no filters', async () => {
    const { searches } = stubSchoolServer();
    renderSchoolPage(['update', 'export']);
    expect(await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.getByText('Agent East')).toBeTruthy();
    expect(screen.getByText('Kindergarten')).toBeTruthy();
    expect(searches[0]).toEqual({ view: 'schoolManage', body: { pageIndex: 1, pageSize: 20 } });
  });

  it('removes the buttons whose permission value is absent', async () => {
    stubSchoolServer();
    renderSchoolPage(['update', 'export']);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    expect(screen.queryByRole('button', { name: /^Add$/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete selected/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('asks before exporting when more rows match than the count shows', async () => {
    stubSchoolServer({ totalIsCapped: true });
    renderSchoolPage(['export']);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    screen.getByRole('button', { name: /Export/ }).click();
    expect(await screen.findByText(/More than 10,000 rows match; the export holds at most the first 100,000/, undefined, RENDER_WAIT)).toBeTruthy();
  });

  it("shows the database's estimate of a large result as one, paging only as far as the server pages", async () => {
    stubSchoolServer({ totalIsEstimate: true });
    renderSchoolPage([]);
    expect(await screen.findByText('about 37,000 in total', undefined, RENDER_WAIT)).toBeTruthy();
    // 10,000 rows at 20 a page: the last page offered is 500, not 1,850.
    expect(document.querySelector('.ant-pagination-item-500')).toBeTruthy();
    expect(document.querySelector('.ant-pagination-item-1850')).toBeNull();
  });

  it('shows Add for a caller holding it', async () => {
    stubSchoolServer();
    renderSchoolPage(['add']);
    await waitFor(() => expect(screen.getByRole('button', { name: /Add/ })).toBeTruthy(), RENDER_WAIT);
  });

  it("leaves a school's owners out of a seller's form but shows them in the table", async () => {
    stubSchoolServer({ userType: 'sales' });
    renderSchoolPage(['add'], schoolModule.overrides);
    expect(await screen.findByText('Agent East', undefined, RENDER_WAIT)).toBeTruthy();
    const add = await screen.findByRole('button', { name: /Add/ }, RENDER_WAIT);
    add.click();
    const drawer = await screen.findByRole('dialog', undefined, RENDER_WAIT);
    await waitFor(() => expect(within(drawer).getByText('School name')).toBeTruthy(), RENDER_WAIT);
    expect(within(drawer).queryByText('Agent')).toBeNull();
    expect(within(drawer).queryByText('Sales team')).toBeNull();
  });

  it("lists a school's classes as its drawer tab does: fixed to the school, without a school column", async () => {
    const { searches } = stubSchoolServer();
    renderPage(<ResourcePage def={SchoolClass} frame="schoolManage" fixedValues={{ schoolId: 11 }} isEmbedded />, { frame: SCHOOL_FRAME, buttons: ['update'] });
    expect(await screen.findByText('Sunflower class', undefined, RENDER_WAIT)).toBeTruthy();
    expect(searches).toContainEqual({ view: 'schoolManage', body: { pageIndex: 1, pageSize: 20, schoolId: 11 } });
    expect(headerTitles()).not.toContain('School');
  });

  it('restores filters, page and sort from the address bar and writes new ones back; back goes to the previous list', async () => {
    const { searches } = stubSchoolServer();
    const page = renderSchoolPage(['update'], undefined, { path: '/schoolManage?schoolName=Sun&state=0&pageIndex=2&sortField=schoolName&sortOrder=desc' });
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    expect(searches[0]).toEqual({ view: 'schoolManage', body: { schoolName: 'Sun', state: 0, pageIndex: 2, pageSize: 20, sortField: 'schoolName', sortOrder: 'desc' } });
    // The filter bar shows what the address asked for.
    expect((nameFilter()).value).toBe('Sun');

    fireEvent.change(nameFilter(), { target: { value: 'Moon' } });
    fireEvent.click(screen.getByRole('button', { name: /^Search$/ }));
    await waitFor(() => expect(page.location()).toBe('/schoolManage?schoolName=Moon&state=0&sortField=schoolName&sortOrder=desc'), RENDER_WAIT);
    await waitFor(() => expect(searches.at(-1)).toMatchObject({ body: { schoolName: 'Moon', pageIndex: 1 } }), RENDER_WAIT);

    act(() => page.navigate(-1));
    await waitFor(() => expect(searches.at(-1)).toMatchObject({ body: { schoolName: 'Sun', pageIndex: 2 } }), RENDER_WAIT);
    await waitFor(() => expect((nameFilter()).value).toBe('Sun'), RENDER_WAIT);
    expect(page.location()).toBe('/schoolManage?schoolName=Sun&state=0&pageIndex=2&sortField=schoolName&sortOrder=desc');
  });

  // Three navigations, each a render of the whole page: seconds apiece on a busy machine (the full suite).
  it('adds a history entry for a search after opening a shared address that holds more than filters, so back returns to the shared list', { timeout: 45_000 }, async () => {
    const { searches } = stubSchoolServer();
    // A link as chat apps pass it on: a parameter the list does not know rides along.
    const page = renderSchoolPage(['update'], undefined, { path: '/schoolManage?schoolName=Sun&from=chat' });
    await screen.findByText('Sunshine Kindergarten', undefined, JOURNEY_WAIT);
    expect(nameFilter().value).toBe('Sun');
    // The list writes the shared address in its own words in place, without a history entry of its own.
    await waitFor(() => expect(page.location()).toBe('/schoolManage?schoolName=Sun'), JOURNEY_WAIT);

    fireEvent.change(nameFilter(), { target: { value: 'Moon' } });
    fireEvent.click(screen.getByRole('button', { name: /^Search$/ }));
    await waitFor(() => expect(page.location()).toBe('/schoolManage?schoolName=Moon'), JOURNEY_WAIT);

    act(() => page.navigate(-1));
    // Back at the shared entry, which the list writes in its own words in place.
    await waitFor(() => expect(page.location()).toBe('/schoolManage?schoolName=Sun'), JOURNEY_WAIT);
    await waitFor(() => expect(nameFilter().value).toBe('Sun'), JOURNEY_WAIT);
    expect(searches.at(-1)).toMatchObject({ body: { schoolName: 'Sun', pageIndex: 1 } });
    // The shared entry was replaced, not pushed over: there is nothing further back.
    act(() => page.navigate(-1));
    expect(page.location()).toBe('/schoolManage?schoolName=Sun');
  });

  it('opens its filter bar expanded when the address sets a filter the collapsed bar hides (a pending link)', async () => {
    stubSchoolServer();
    renderSchoolPage([], undefined, { path: '/schoolManage?licenseKeyRequired=0' });
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    expect(screen.getByRole('button', { name: /Fewer filters/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Fewer filters/ }));
    expect(await screen.findByRole('button', { name: /More filters/ }, RENDER_WAIT)).toBeTruthy();
  });

  it('ignores address values that are no filter of the family or not of the field’s kind', async () => {
    const { searches } = stubSchoolServer();
    renderSchoolPage([], undefined, { path: '/schoolManage?password=x&state=abc&pageIndex=-3&sortField=password&sortOrder=asc' });
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    expect(searches[0]).toEqual({ view: 'schoolManage', body: { pageIndex: 1, pageSize: 20 } });
  });

  // Four renders of the table, each a few seconds under load: room beyond the file's 15 s.
  it('resizes a column from the keyboard: its edge is a focusable separator the arrow keys move, saved like a drag', { timeout: 45_000 }, async () => {
    const server = stubSchoolServer();
    renderSchoolPage(['update']);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    const edge = screen.getByRole('separator', { name: /Width of School name/ });
    expect(edge.tabIndex).toBe(0);
    const before = Number(edge.getAttribute('aria-valuenow'));
    edge.focus();
    fireEvent.keyDown(edge, { key: 'ArrowRight' });
    await waitFor(() => expect(Number(screen.getByRole('separator', { name: /Width of School name/ }).getAttribute('aria-valuenow'))).toBe(before + 10), RENDER_WAIT);
    fireEvent.keyDown(screen.getByRole('separator', { name: /Width of School name/ }), { key: 'ArrowRight', shiftKey: true });
    await waitFor(() => expect(server.preferences.get('schoolManage.School')?.table).toMatchObject({ widths: { schoolName: before + 60 } }), RENDER_WAIT);
    // The header sorts on Enter, but not from a key pressed on its edge.
    const header = screen.getByRole('separator', { name: /Width of School name/ }).closest('th')!;
    fireEvent.keyDown(screen.getByRole('separator', { name: /Width of School name/ }), { key: 'Enter', keyCode: 13 });
    expect(header.getAttribute('aria-sort')).toBeNull();
    fireEvent.keyDown(header, { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(header.getAttribute('aria-sort')).toBe('ascending'), RENDER_WAIT);
  });

  it('saves the shown columns and their order on the server', async () => {
    const server = stubSchoolServer();
    renderSchoolPage(['update']);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const settings = await screen.findByTestId('column-settings', undefined, RENDER_WAIT);
    fireEvent.click(within(settings).getByRole('checkbox', { name: 'Agent' }));
    fireEvent.click(within(settings).getByRole('button', { name: 'State: Move up' }));
    await waitFor(() => expect(server.preferences.get('schoolManage.School')?.table).toMatchObject({ hidden: ['agentId'] }), RENDER_WAIT);
    expect(server.preferences.get('schoolManage.School')?.table?.order.indexOf('state')).toBeGreaterThanOrEqual(0);
    expect(headerTitles()).not.toContain('Agent');
  });

  it('reads the saved layout and page size before the first search, as another browser does, and resets it', async () => {
    const server = stubSchoolServer();
    server.preferences.set('schoolManage.School', { page: 'schoolManage.School', table: { hidden: ['agentId'], order: [], widths: {}, pinned: {}, density: 'small', pageSize: 50 }, views: [] });
    renderSchoolPage(['update']);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    expect(server.searches).toEqual([{ view: 'schoolManage', body: { pageIndex: 1, pageSize: 50 } }]);
    expect(headerTitles()).not.toContain('Agent');
    expect(document.querySelector('.ant-table-small')).not.toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    fireEvent.click(within(await screen.findByTestId('column-settings', undefined, RENDER_WAIT)).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(server.calls.some((call) => call.path === PREFERENCE_PATHS.resetTable)).toBe(true), RENDER_WAIT);
    await waitFor(() => expect(headerTitles()).toContain('Agent'), RENDER_WAIT);
  });

  it('shows a failed search as an error with a retry, not as "no data"', async () => {
    const { searches } = stubSchoolServer({ failSearches: 1 });
    renderSchoolPage([]);
    const failure = await screen.findByTestId('search-failed', undefined, RENDER_WAIT);
    expect(failure.textContent).toMatch(/The search failed/);
    expect(screen.queryByText('No data')).toBeNull();
    fireEvent.click(within(failure).getByRole('button', { name: /Retry/ }));
    expect(await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT)).toBeTruthy();
    expect(searches).toHaveLength(2);
  });

  it('asks before a switch disables a row, then says it was done; enabling needs no question', async () => {
    const { toggles } = stubSchoolServer();
    renderSchoolPage(['state']);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    fireEvent.click(screen.getByRole('switch'));
    const question = await screen.findByText('Set School "Sunshine Kindergarten" to Suspended?', undefined, RENDER_WAIT);
    expect(toggles).toEqual([]);
    fireEvent.click(within(question.closest('.ant-modal') as HTMLElement).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(toggles).toEqual([{ ids: [11], value: 0 }]), RENDER_WAIT);
    expect(await screen.findByText('Set to Suspended', undefined, RENDER_WAIT)).toBeTruthy();
  });

  it('saves the filter bar as a named view and applies it later', async () => {
    const server = stubSchoolServer();
    renderSchoolPage([]);
    await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT);
    fireEvent.change(nameFilter(), { target: { value: 'Sun' } });
    fireEvent.click(screen.getByTestId('filter-views'));
    fireEvent.click(await screen.findByText('Save the current filters as a view', undefined, RENDER_WAIT));
    fireEvent.change(await screen.findByLabelText('View name', undefined, RENDER_WAIT), { target: { value: 'Sunny' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.preferences.get('schoolManage.School')?.views).toEqual([{ name: 'Sunny', filters: { schoolName: 'Sun' } }]), RENDER_WAIT);

    fireEvent.change(nameFilter(), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('filter-views'));
    fireEvent.click(await screen.findByText('Sunny', undefined, RENDER_WAIT));
    await waitFor(() => expect(server.searches.at(-1)).toMatchObject({ body: { schoolName: 'Sun', pageIndex: 1 } }), RENDER_WAIT);
    expect((nameFilter()).value).toBe('Sun');
  });

  it('opens a row read-only from its first cell, with Edit for a caller who may change it', async () => {
    stubSchoolServer();
    renderSchoolPage(['update']);
    fireEvent.click(await screen.findByText('Sunshine Kindergarten', undefined, RENDER_WAIT));
    const view = await screen.findByTestId('record-view', undefined, RENDER_WAIT);
    expect(within(view).getByText('Agent East')).toBeTruthy();
    expect(view.querySelector('input')).toBeNull();
    expect(screen.getByText('Edit', { selector: '.ant-drawer-footer button span' })).toBeTruthy();
  });
});
