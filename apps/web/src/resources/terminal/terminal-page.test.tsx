import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { renderPage, stubServer } from '../../test/render-page';
import { resourcePageFor } from '../pages';

const RENDER_WAIT = { timeout: 5000 };

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

/** The server as the page sees it: one terminal, the terminal settings, and IssueSecret answering a new secret. */
function stubTerminalServer(secretIssuedAt: string | null, { userType = 'company' } = {}) {
  const issued: unknown[] = [];
  const savedSettings: unknown[] = [];
  let settings = { heartbeatSeconds: 30, successSimilarity: 70 };
  stubServer({
    '/api/Terminal/GetSettings': () => settings,
    '/api/Terminal/SaveSettings': ({ body }) => {
      savedSettings.push(body);
      settings = body as typeof settings;
      return settings;
    },
    '/api/Terminal/Search': () => ({ items: [terminalRow(secretIssuedAt)], total: 1, totalIsCapped: false }),
    '/api/Terminal/IssueSecret': ({ body }) => {
      issued.push(body);
      return { secret: 'c2VjcmV0LXNob3duLW9uY2Utb25seS1oZXJlLXRvLWNvcHk' };
    },
  }, { userType });
  return { issued, savedSettings };
}

/** The page as the menu opens it: the declared terminal settings above the generic list with the terminal's overrides. */
function renderTerminalPage() {
  const Page = resourcePageFor('equipmentManage');
  return renderPage(<Page />, {
    frame: { fixedId: 601, index: 'equipmentManage' },
    buttons: ['update'],
  });
}

describe('the terminal page', { timeout: 45_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('issues a first secret without asking and shows it once, with a copy button', async () => {
    const { issued } = stubTerminalServer(null);
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
    const { issued } = stubTerminalServer('2026-03-01T08:00:00.000Z');
    renderTerminalPage();
    (await screen.findByRole('button', { name: 'Issue secret' }, RENDER_WAIT)).click();
    expect(await screen.findByText(/The old secret stops working at once/, undefined, RENDER_WAIT)).toBeTruthy();
    screen.getByRole('button', { name: 'Cancel' }).click();
    await vi.waitFor(() => expect(screen.queryByText(/The old secret stops working at once/)).toBeNull(), RENDER_WAIT);
    expect(issued).toEqual([]);
  });

  it('saves the heartbeat interval and the success similarity for a company user', async () => {
    const { savedSettings } = stubTerminalServer(null);
    renderTerminalPage();
    const interval = await screen.findByRole('spinbutton', { name: 'Heartbeat interval' }, RENDER_WAIT);
    await vi.waitFor(() => expect((interval as HTMLInputElement).value).toBe('30'), RENDER_WAIT);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(interval, { target: { value: '60' } });
    fireEvent.blur(interval);
    await vi.waitFor(() => expect(save.hasAttribute('disabled')).toBe(false), RENDER_WAIT);
    fireEvent.click(save);
    await vi.waitFor(() => expect(savedSettings).toEqual([{ heartbeatSeconds: 60, successSimilarity: 70 }]), RENDER_WAIT);
  });

  it('shows the settings read-only to an agent', async () => {
    stubTerminalServer(null, { userType: 'agent' });
    renderTerminalPage();
    const card = await screen.findByTestId('setting-terminalSettings', undefined, RENDER_WAIT);
    await vi.waitFor(() => expect(card.textContent).toContain('30 s'), RENDER_WAIT);
    expect(within(card).queryByRole('spinbutton')).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
