import {
  API_PATHS,
  type CaptchaResponse,
  type LoginRequest,
  type LoginSecondFactorRequest,
  type LoginResponse,
  type TotpEnrolment,
  type TwoFactorSetupLogin,
  type sendSmsCodeRequestSchema,
  type updateUserPasswordRequestSchema,
} from '@campus/contract';
import { http } from '../request';
import type { RequestOf } from './contract-types';

export type SendResetSmsCodeRequest = RequestOf<typeof sendSmsCodeRequestSchema>;
export type ResetPasswordRequest = RequestOf<typeof updateUserPasswordRequestSchema>;

export const accountApi = {
  getCaptcha: () => http.get<CaptchaResponse>(API_PATHS.captcha),
  login: (body: LoginRequest) => http.post<LoginResponse>(API_PATHS.login, body),
  /** The second step after code 602: the authenticator code or a recovery code with the challenge. */
  loginSecondFactor: (body: LoginSecondFactorRequest) => http.post<LoginResponse>(API_PATHS.loginSecondFactor, body),
  /** After code 603: a new authenticator secret for the account signing in. */
  beginTwoFactorSetup: (challenge: string) => http.post<TotpEnrolment>(API_PATHS.beginTwoFactorSetup, { challenge }),
  /** After code 603: confirms the authenticator with its first code; answers the session and the recovery codes. */
  confirmTwoFactorSetup: (body: { challenge: string; code: string }) => http.post<TwoFactorSetupLogin>(API_PATHS.confirmTwoFactorSetup, body),
  /** Ends the session server-side; quiet, because log-out goes on locally whatever it answers. */
  logout: () => http.post<null>(API_PATHS.logout, undefined, { silent: true }),
  sendResetSmsCode: (body: SendResetSmsCodeRequest) => http.post<null>(API_PATHS.accountSendSmsCode, body),
  resetPassword: (body: ResetPasswordRequest) => http.post<null>(API_PATHS.accountUpdatePassword, body),
};
