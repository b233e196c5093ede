import {
  API_PATHS,
  type CaptchaResponse,
  type LoginRequest,
  type LoginSecondFactorRequest,
  type LoginResponse,
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
  /** Ends the session server-side; quiet, because log-out goes on locally whatever it answers. */
  logout: () => http.post<null>(API_PATHS.logout, undefined, { silent: true }),
  sendResetSmsCode: (body: SendResetSmsCodeRequest) => http.post<null>(API_PATHS.accountSendSmsCode, body),
  resetPassword: (body: ResetPasswordRequest) => http.post<null>(API_PATHS.accountUpdatePassword, body),
};
