import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TestApp } from '../../test/antd.js';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountApi } from '../../lib/api/account';
import { setLocale } from '../../lib/i18n';
import { RequestError } from '../../lib/request';
import { readSession } from '../../lib/session';
import LoginPage from './login-page';

const WAIT = { timeout: 10_000 };
// antd forms take seconds to render in jsdom on a busy machine.
const TEST_TIMEOUT = 30_000;

const loginAnswer = { Token: 't'.repeat(43), SchoolName: 'Campus Ops', UserName: 'Admin', UserId: 1, SchoolId: 0, ClassId: 0, TokenTime: '2026-03-02T13:00:00.000Z', Frames: [{ ID: 301 }] };

function renderLogin(entry = '/login') {
  render(
    <TestApp>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/index" element={<div>console home</div>} />
            <Route path="/refundManage" element={<div>refunds page</div>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </TestApp>,
  );
}

const fill = (placeholder: string, value: string) => fireEvent.change(screen.getByPlaceholderText(placeholder), { target: { value } });

describe('LoginPage', () => {
  beforeEach(() => {
    setLocale('en');
    window.sessionStorage.clear();
    vi.restoreAllMocks();
    vi.spyOn(accountApi, 'getCaptcha').mockResolvedValue({ vcId: 'captcha-1', image: 'data:image/svg+xml;base64,PHN2Zy8+' });
  });

  it('asks for the authenticator code after a 602 and signs in with the challenge and the code (issue 8)', async () => {
    const secondFactorRequired = new RequestError({
      message: 'enter the code from your authenticator app',
      status: 200,
      code: 602,
      errors: [],
      url: '/api/Account/Login_web',
      kind: 'secondFactorRequired',
      data: { challenge: 'challenge-1', expiresAt: '2026-03-02T01:05:00.000Z' },
    });
    const login = vi.spyOn(accountApi, 'login').mockRejectedValue(secondFactorRequired);
    const second = vi.spyOn(accountApi, 'loginSecondFactor').mockResolvedValue(loginAnswer);
    renderLogin();
    await waitFor(() => expect(screen.getByAltText('Verification code')).toBeTruthy(), WAIT);
    fill('User name', 'admin');
    fill('Password', 'Admin@123');
    fill('Verification code', '1234');
    fireEvent.submit(screen.getByPlaceholderText('User name').closest('form')!);
    await waitFor(() => expect(screen.getByTestId('second-factor-form')).toBeTruthy(), WAIT);
    expect(login).toHaveBeenCalledWith(expect.objectContaining({ userName: 'admin', vcId: 'captcha-1', vcCode: '1234' }));
    expect(readSession()).toBeNull();

    fill('Authentication code or recovery code', ' 123456 ');
    fireEvent.submit(screen.getByTestId('second-factor-form'));
    await waitFor(() => expect(screen.getByText('console home')).toBeTruthy(), WAIT);
    expect(second).toHaveBeenCalledWith({ challenge: 'challenge-1', code: '123456' });
    expect(readSession()?.token).toBe(loginAnswer.Token);
  }, TEST_TIMEOUT);

  it('sets up the mandatory authenticator after a 603, shows the recovery codes, then signs in (issue 8)', async () => {
    vi.spyOn(accountApi, 'login').mockRejectedValue(
      new RequestError({
        message: 'set up two-factor sign-in first',
        status: 200,
        code: 603,
        errors: [],
        url: '/api/Account/Login_web',
        kind: 'twoFactorSetupRequired',
        data: { challenge: 'setup-1', expiresAt: '2026-03-02T01:05:00.000Z' },
      }),
    );
    const begin = vi.spyOn(accountApi, 'beginTwoFactorSetup').mockResolvedValue({ secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Campus%20Ops:admin?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
    const confirm = vi.spyOn(accountApi, 'confirmTwoFactorSetup').mockResolvedValue({ login: loginAnswer, recoveryCodes: ['abcde-fghjk', 'mnpqr-stuvw'] });
    renderLogin();
    await waitFor(() => expect(screen.getByAltText('Verification code')).toBeTruthy(), WAIT);
    fill('User name', 'admin');
    fill('Password', 'Admin@123');
    fill('Verification code', '1234');
    fireEvent.submit(screen.getByPlaceholderText('User name').closest('form')!);
    // The step is its own chunk: it appears once loaded, and asks for the secret by itself.
    await waitFor(() => expect(screen.getByTestId('setup-secret').textContent).toContain('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'), WAIT);
    expect(begin).toHaveBeenCalledWith('setup-1');
    expect(readSession()).toBeNull();

    fill('6-digit code', ' 654321 ');
    fireEvent.submit(screen.getByPlaceholderText('6-digit code').closest('form')!);
    await waitFor(() => expect(screen.getByTestId('setup-recovery-codes')).toBeTruthy(), WAIT);
    expect(confirm).toHaveBeenCalledWith({ challenge: 'setup-1', code: '654321' });
    expect(screen.getByText('abcde-fghjk')).toBeTruthy();
    // No session until the codes were seen.
    expect(readSession()).toBeNull();
    fireEvent.click(screen.getByText('I have saved them, continue'));
    await waitFor(() => expect(screen.getByText('console home')).toBeTruthy(), WAIT);
    expect(readSession()?.token).toBe(loginAnswer.Token);
  }, TEST_TIMEOUT);

  it('lands where the link pointed when /login remembers it (issue 26)', async () => {
    vi.spyOn(accountApi, 'login').mockResolvedValue(loginAnswer);
    renderLogin(`/login?redirect=${encodeURIComponent('/refundManage?school=1')}`);
    await waitFor(() => expect(screen.getByAltText('Verification code')).toBeTruthy(), WAIT);
    fill('User name', 'admin');
    fill('Password', 'Admin@123');
    fill('Verification code', '1234');
    fireEvent.submit(screen.getByPlaceholderText('User name').closest('form')!);
    await waitFor(() => expect(screen.getByText('refunds page')).toBeTruthy(), WAIT);
  }, TEST_TIMEOUT);

  it('goes back to the password with a new image code', async () => {

    vi.spyOn(accountApi, 'login').mockRejectedValue(
      new RequestError({ message: '', status: 200, code: 602, errors: [], url: '', kind: 'secondFactorRequired', data: { challenge: 'c', expiresAt: '' } }),
    );
    renderLogin();
    await waitFor(() => expect(screen.getByAltText('Verification code')).toBeTruthy(), WAIT);
    fill('User name', 'admin');
    fill('Password', 'Admin@123');
    fill('Verification code', '1234');
    fireEvent.submit(screen.getByPlaceholderText('User name').closest('form')!);
    await waitFor(() => expect(screen.getByTestId('second-factor-form')).toBeTruthy(), WAIT);
    fireEvent.click(screen.getByText('Back to password'));
    await waitFor(() => expect(screen.getByPlaceholderText('Password')).toBeTruthy(), WAIT);
    expect(accountApi.getCaptcha).toHaveBeenCalledTimes(2);
  }, TEST_TIMEOUT);

  it('asks for every empty field without calling the server, and shows the server\'s field errors under their fields', async () => {
    const login = vi.spyOn(accountApi, 'login').mockRejectedValueOnce(
      new RequestError({ message: 'invalid', status: 400, code: 400, errors: [{ path: 'userName', message: 'at most 50 characters' }], url: '', kind: 'http', data: null }),
    );
    renderLogin();
    await waitFor(() => expect(screen.getByAltText('Verification code')).toBeTruthy(), WAIT);
    fill('User name', '   ');
    fireEvent.submit(screen.getByPlaceholderText('User name').closest('form')!);
    await waitFor(() => expect(screen.getByText('Please enter User name')).toBeTruthy(), WAIT);
    expect(screen.getByText('Please enter Password')).toBeTruthy();
    expect(screen.getByText('Please enter Verification code')).toBeTruthy();
    expect(screen.getByPlaceholderText('User name').getAttribute('aria-invalid')).toBe('true');
    expect(login).not.toHaveBeenCalled();

    fill('User name', 'admin');
    fill('Password', 'Admin@123');
    fill('Verification code', '1234');
    expect(screen.queryByText('Please enter User name')).toBeNull();
    fireEvent.submit(screen.getByPlaceholderText('User name').closest('form')!);
    await waitFor(() => expect(screen.getByText('at most 50 characters')).toBeTruthy(), WAIT);
    // The image code is spent: its field is emptied and a new image asked for.
    expect((screen.getByPlaceholderText('Verification code') as HTMLInputElement).value).toBe('');
    expect(accountApi.getCaptcha).toHaveBeenCalledTimes(2);
    // The password is sent as its MD5, never as typed.
    expect(login).toHaveBeenCalledWith(expect.objectContaining({ userName: 'admin', password: '0e7517141fb53f21ee439b355b5a1d0a' }));
  }, TEST_TIMEOUT);

  it('asks to wait for the image code before sending a code that belongs to no image yet', async () => {
    let arrive: (answer: { vcId: string; image: string }) => void = () => undefined;
    vi.spyOn(accountApi, 'getCaptcha').mockReturnValue(new Promise((resolve) => (arrive = resolve)));
    const login = vi.spyOn(accountApi, 'login').mockResolvedValue(loginAnswer);
    renderLogin();
    fill('User name', 'admin');
    fill('Password', 'Admin@123');
    fill('Verification code', '1234');
    fireEvent.submit(screen.getByPlaceholderText('User name').closest('form')!);
    await waitFor(() => expect(screen.getByText(/The code image has not arrived yet/)).toBeTruthy(), WAIT);
    expect(login).not.toHaveBeenCalled();
    arrive({ vcId: 'captcha-late', image: 'data:image/svg+xml;base64,PHN2Zy8+' });
    await waitFor(() => expect(screen.getByAltText('Verification code')).toBeTruthy(), WAIT);
    fireEvent.submit(screen.getByPlaceholderText('User name').closest('form')!);
    await waitFor(() => expect(login).toHaveBeenCalledWith(expect.objectContaining({ vcId: 'captcha-late', vcCode: '1234' })), WAIT);
  }, TEST_TIMEOUT);
});
