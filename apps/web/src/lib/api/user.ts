import {
  API_PATHS,
  type LoginUserInfo,
  type RecoveryCodes,
  type TotpEnrolment,
  type UpdateLoginUserInfoRequest,
  type VisibilityProbes,
  type updateLoginUserPasswordRequestSchema,
  type updateRefundPasswordRequestSchema,
  type userSendSmsCodeRequestSchema,
} from '@campus/contract';
import { http } from '../request';
import type { RequestOf } from './contract-types';

export type UserSmsPurpose = RequestOf<typeof userSendSmsCodeRequestSchema>['purpose'];
export type UpdateLoginUserPasswordRequest = RequestOf<typeof updateLoginUserPasswordRequestSchema>;
export type UpdateRefundPasswordRequest = RequestOf<typeof updateRefundPasswordRequestSchema>;

export const userApi = {
  getVisibilityProbes: () => http.get<VisibilityProbes>(API_PATHS.visibilityProbes),
  getLoginUserInfo: () => http.get<LoginUserInfo>(API_PATHS.loginUserInfo),
  updateLoginUserInfo: (body: UpdateLoginUserInfoRequest) => http.post<LoginUserInfo | null>(API_PATHS.updateLoginUserInfo, body),
  sendSmsCode: (purpose: UserSmsPurpose) => http.post<null>(API_PATHS.userSendSmsCode, { purpose }),
  updateLoginUserPassword: (body: UpdateLoginUserPasswordRequest) => http.post<null>(API_PATHS.updateLoginUserPassword, body),
  updateRefundPassword: (body: UpdateRefundPasswordRequest) => http.post<null>(API_PATHS.updateRefundPassword, body),
  beginTotp: (password: string) => http.post<TotpEnrolment>(API_PATHS.beginTotp, { password }),
  confirmTotp: (code: string) => http.post<RecoveryCodes>(API_PATHS.confirmTotp, { code }),
  disableTotp: (body: { password: string; code: string }) => http.post<null>(API_PATHS.disableTotp, body),
};
