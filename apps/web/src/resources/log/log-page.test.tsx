import { FeverAlert, RecognitionRecord } from '@campus/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { renderPage, stubServer } from '../../test/render-page';
import { LogPage } from './log-page';

const RENDER_WAIT = { timeout: 5000 };

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

/** Serves the page's calls: Search answers `rows` (or fails), Hide answers how many; records every call. */
function serve(rows: Record<string, unknown>[], { failSearches = 0 } = {}) {
  let failuresLeft = failSearches;
  const search = () => {
    if (failuresLeft-- > 0) return new Response(JSON.stringify({ code: 500, message: 'internal server error', data: null }), { status: 500 });
    return { items: rows, hasMore: false, nextCursor: null, prevCursor: null, range: { from: '2026-11-16T16:00:00.000Z', to: null } };
  };
  const server = stubServer({
    '/api/RecognitionRecord/Search': search,
    '/api/RecognitionRecord/Hide': ({ body }) => ({ hidden: (body as { ids: number[] }).ids.length }),
  });
  return server.calls;
}

function renderLog(frame: 'identifySuccess' | 'identifyWarn', fixedId: number, buttons: string[], path?: string) {
  return renderPage(<LogPage def={RecognitionRecord} frame={frame} />, { frame: { fixedId, index: frame }, buttons, path });
}

describe('<LogPage> of recognition records', { timeout: 40_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it("reads its page's view, without a filter or column for the field the view fixes", async () => {
    const calls = serve([record(1, '王子涵', true)]);
    renderLog('identifySuccess', 609, ['hide']);
    expect(await screen.findByText('王子涵', undefined, RENDER_WAIT)).toBeTruthy();
    expect(calls.find((call) => call.url.includes('/api/RecognitionRecord/Search'))?.url).toContain('view=identifySuccess');
    for (const label of ['Name', 'Device', 'Direction', 'Person type']) expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    expect(screen.queryByText('Recognised')).toBeNull();
  });

  it('hides a row after confirmation, through Hide of the same view', async () => {
    const calls = serve([record(3, '李欣怡', false)]);
    renderLog('identifyWarn', 610, ['hide']);
    const row = (await screen.findByText('李欣怡', undefined, RENDER_WAIT)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Hide' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }, RENDER_WAIT));
    await waitFor(() => expect(calls.find((call) => call.url.includes('/Hide'))).toBeDefined(), RENDER_WAIT);
    const hide = calls.find((call) => call.url.includes('/Hide'))!;
    expect(hide.url).toContain('view=identifyWarn');
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
    const searches = () => calls.filter((call) => call.url.includes('/api/RecognitionRecord/Search')).length;
    const before = searches();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches()).toBe(before + 1), RENDER_WAIT);
    // The answer is on screen again before the page goes away.
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull(), RENDER_WAIT);
    expect(screen.getByText('赵子涵')).toBeTruthy();
  });

  it('starts from the filters of its address and writes new ones back', async () => {
    const calls = serve([record(6, '孙小雨', true)]);
    const page = renderLog('identifySuccess', 609, [], `/identifySuccess?personName=${encodeURIComponent('小雨')}`);
    await screen.findByText('孙小雨', undefined, RENDER_WAIT);
    const search = calls.find((call) => call.url.includes('/api/RecognitionRecord/Search'));
    expect(search?.body).toMatchObject({ personName: '小雨' });
    fireEvent.change(document.getElementById('log-filters-identifySuccess-RecognitionRecord_personName')!, { target: { value: '王' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(page.location()).toBe(`/identifySuccess?personName=${encodeURIComponent('王')}`), RENDER_WAIT);
  });

  it('shows a failed search with a retry instead of an empty log', async () => {
    serve([record(7, '周一', true)], { failSearches: 1 });
    renderLog('identifySuccess', 609, []);
    const failure = await screen.findByTestId('search-failed', undefined, RENDER_WAIT);
    fireEvent.click(within(failure).getByRole('button', { name: /Retry/ }));
    expect(await screen.findByText('周一', undefined, RENDER_WAIT)).toBeTruthy();
  });
});

const alert = (id: number, personName: string, acknowledged: boolean) => ({
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
  temperature: 38.1,
  threshold: 37.3,
  recognitionId: id,
  acknowledged,
  acknowledgedBy: acknowledged ? 1 : null,
  acknowledgedAt: acknowledged ? '2026-11-20T01:00:00.000Z' : null,
});

describe('<LogPage> of fever alerts', { timeout: 40_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('offers Acknowledge only on alerts nobody has acknowledged', async () => {
    stubServer({
      '/api/FeverAlert/Search': () => ({ items: [alert(1, '王子涵', false), alert(2, '李欣怡', true)], hasMore: false, nextCursor: null, prevCursor: null, range: { from: '2026-11-16T16:00:00.000Z', to: null } }),
    });
    renderPage(<LogPage def={FeverAlert} frame="userTemperature" />, { frame: { fixedId: 207, index: 'userTemperature' }, buttons: ['examine'] });
    const open = (await screen.findByText('王子涵', undefined, RENDER_WAIT)).closest('tr')!;
    const done = screen.getByText('李欣怡').closest('tr')!;
    expect(within(open).getByRole('button', { name: 'Acknowledge' })).toBeTruthy();
    expect(within(done).queryByRole('button', { name: 'Acknowledge' })).toBeNull();
  });

  it("reads the menu's badges again after an acknowledgement, so 体温异常's count drops at once", async () => {
    const server = stubServer({
      '/api/FeverAlert/Search': () => ({ items: [alert(1, '王子涵', false)], hasMore: false, nextCursor: null, prevCursor: null, range: { from: '2026-11-16T16:00:00.000Z', to: null } }),
      '/api/FeverAlert/Acknowledge': () => ({ id: 1 }),
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(['badgeCounts', 'token'], { userTemperature: 1 });
    renderPage(<LogPage def={FeverAlert} frame="userTemperature" />, { frame: { fixedId: 207, index: 'userTemperature' }, buttons: ['examine'], client });
    const row = (await screen.findByText('王子涵', undefined, RENDER_WAIT)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Acknowledge' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }, RENDER_WAIT));
    await waitFor(() => expect(server.calls.some((call) => call.url.includes('/api/FeverAlert/Acknowledge'))).toBe(true), RENDER_WAIT);
    await waitFor(() => expect(client.getQueryState(['badgeCounts', 'token'])?.isInvalidated).toBe(true), RENDER_WAIT);
  });
});
