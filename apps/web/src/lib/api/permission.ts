/** Calls of jurisdictionManage (grants, probes), the caller's sessions and sales team members. */
import {
  API_PATHS,
  type ConfigurableProbes,
  type GrantAccount,
  type GrantFrame,
  type GrantTree,
  type ProbeSettings,
  type SalesTeamMember,
  type SessionPage,
  type UserType,
} from '@campus/contract';
import { http } from '../request';

/** Whose grant or probes: a user type, or one account. */
export type GrantSubject = { userType: UserType } | { userId: number };

export const permissionApi = {
  getGrant: (subject: GrantSubject) => http.get<GrantTree>(API_PATHS.getGrant, subject),
  saveGrant: (subject: GrantSubject, frames: GrantFrame[]) => http.post<GrantTree>(API_PATHS.saveGrant, { ...subject, frames }),
  resetUserGrant: (userId: number) => http.post<GrantTree>(API_PATHS.resetUserGrant, { userId }),
  searchAccounts: (keyword: string) => http.get<GrantAccount[]>(API_PATHS.searchAccounts, { keyword: keyword || undefined }),
  getProbes: (subject: GrantSubject) => http.get<ProbeSettings>(API_PATHS.getProbes, subject),
  saveProbes: (subject: GrantSubject, values: Partial<ConfigurableProbes>) => http.post<null>(API_PATHS.saveProbes, { ...subject, values }),
  resetUserProbes: (userId: number) => http.post<null>(API_PATHS.resetUserProbes, { userId }),
};

export const sessionApi = {
  /** A page of the caller's sessions, this one first. */
  list: (pageIndex: number, pageSize: number) => http.get<SessionPage>(API_PATHS.sessions, { pageIndex, pageSize }),
  end: (id: number) => http.post<null>(API_PATHS.endSession, { id }),
  endOthers: () => http.post<{ ended: number }>(API_PATHS.endOtherSessions),
};

export const salesTeamApi = {
  members: (id: number) => http.get<SalesTeamMember[]>(API_PATHS.salesTeamMembers, { id }),
  saveMembers: (id: number, members: { userId: number; level: number }[]) => http.post<null>(API_PATHS.saveSalesTeamMembers, { id, members }),
};
