import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FeverThresholdSetting, TerminalSettingsSetting, TwoFactorPolicySetting } from '@campus/contract';
import { setLocale } from '../../lib/i18n';
import { resourcePageFor } from '../pages';
import { SettingCard } from './setting-card';
import { renderPage, stubServer } from '../../test/render-page';

const RENDER_WAIT = { timeout: 5000 };

/** A setting the stub keeps between calls: GET answers it, SaveX stores the body, and every call is counted. */
function stubSetting<T>(path: string, savePath: string, initial: T, userType = 'company') {
  let value = initial;
  const saved: unknown[] = [];
  let reads = 0;
  stubServer(
    {
      [path]: () => {
        reads += 1;
        return value;
      },
      [savePath]: ({ body }) => {
        saved.push(body);
        value = body as T;
        return value;
      },
    },
    { userType },
  );
  return { saved, reads: () => reads };
}

describe('the card of a declared setting (SettingCard)', { timeout: 30_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('lets a company user holding the button save the fever threshold, then reads it again', async () => {
    const server = stubSetting('/api/FeverAlert/GetThreshold', '/api/FeverAlert/SaveThreshold', { threshold: 37.3 });
    renderPage(<SettingCard setting={FeverThresholdSetting} frame="userTemperature" />, { frame: { fixedId: 207, index: 'userTemperature' }, buttons: ['examine'] });
    const input = await screen.findByRole('spinbutton', { name: 'Fever threshold' }, RENDER_WAIT);
    await vi.waitFor(() => expect((input as HTMLInputElement).value).toBe('37.3'), RENDER_WAIT);
    fireEvent.change(input, { target: { value: '37.8' } });
    fireEvent.blur(input);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(server.saved).toEqual([{ threshold: 37.8 }]), RENDER_WAIT);
    await vi.waitFor(() => expect(server.reads()).toBe(2), RENDER_WAIT);
    expect(await screen.findByText('Fever threshold saved', undefined, RENDER_WAIT)).toBeTruthy();
  });

  it('shows the threshold read-only without the button, and to an agent with it', async () => {
    stubSetting('/api/FeverAlert/GetThreshold', '/api/FeverAlert/SaveThreshold', { threshold: 37.3 }, 'agent');
    renderPage(<SettingCard setting={FeverThresholdSetting} frame="userTemperature" />, { frame: { fixedId: 207, index: 'userTemperature' }, buttons: ['examine'] });
    expect(await screen.findByText('37.3 ℃', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.queryByRole('spinbutton')).toBeNull();
  });

  it('switches the two-factor policy for a company user holding the button, and not without it', async () => {
    const server = stubSetting('/api/CompanyUser/GetTwoFactorPolicy', '/api/CompanyUser/SaveTwoFactorPolicy', { required: false });
    const page = renderPage(<SettingCard setting={TwoFactorPolicySetting} frame="userCompany" />, { frame: { fixedId: 801, index: 'userCompany' }, buttons: ['password'] });
    const toggle = await screen.findByRole('switch', { name: 'Company administrators must use two-factor sign-in' }, RENDER_WAIT);
    await vi.waitFor(() => expect(toggle.hasAttribute('disabled')).toBe(false), RENDER_WAIT);
    fireEvent.click(toggle);
    await vi.waitFor(() => expect(server.saved).toEqual([{ required: true }]), RENDER_WAIT);
    await vi.waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'), RENDER_WAIT);
    page.unmount();

    stubSetting('/api/CompanyUser/GetTwoFactorPolicy', '/api/CompanyUser/SaveTwoFactorPolicy', { required: false });
    renderPage(<SettingCard setting={TwoFactorPolicySetting} frame="userCompany" />, { frame: { fixedId: 801, index: 'userCompany' }, buttons: [] });
    const locked = await screen.findByRole('switch', undefined, RENDER_WAIT);
    await vi.waitFor(() => expect(locked.hasAttribute('disabled')).toBe(true), RENDER_WAIT);
  });
  it('saves both terminal settings with one button, only once one of them changed', async () => {
    const server = stubSetting('/api/Terminal/GetSettings', '/api/Terminal/SaveSettings', { heartbeatSeconds: 30, successSimilarity: 70 });
    renderPage(<SettingCard setting={TerminalSettingsSetting} frame="equipmentManage" />, { frame: { fixedId: 601, index: 'equipmentManage' }, buttons: ['update'] });
    const interval = await screen.findByRole('spinbutton', { name: 'Heartbeat interval' }, RENDER_WAIT);
    await vi.waitFor(() => expect((interval as HTMLInputElement).value).toBe('30'), RENDER_WAIT);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(interval, { target: { value: '60' } });
    fireEvent.blur(interval);
    await vi.waitFor(() => expect(save.hasAttribute('disabled')).toBe(false), RENDER_WAIT);
    fireEvent.click(save);
    await vi.waitFor(() => expect(server.saved).toEqual([{ heartbeatSeconds: 60, successSimilarity: 70 }]), RENDER_WAIT);
    expect(await screen.findByText('Terminal settings saved', undefined, RENDER_WAIT)).toBeTruthy();
  });
});

describe('the company users page', { timeout: 30_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows the two-factor policy above the list of company users', async () => {
    stubServer({
      '/api/CompanyUser/GetTwoFactorPolicy': () => ({ required: true }),
      '/api/CompanyUser/Search': () => ({ items: [], total: 0, totalIsCapped: false, totalIsEstimate: false, hasMore: false }),
    });
    const Page = resourcePageFor('userCompany');
    renderPage(<Page />, { frame: { fixedId: 801, index: 'userCompany' }, buttons: ['password'] });
    const toggle = await screen.findByRole('switch', { name: 'Company administrators must use two-factor sign-in' }, RENDER_WAIT);
    await vi.waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'), RENDER_WAIT);
    expect(await screen.findByRole('table', undefined, RENDER_WAIT)).toBeTruthy();
  });
});
