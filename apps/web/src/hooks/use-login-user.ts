import { useQuery } from '@tanstack/react-query';
import { userApi } from '../lib/api/user';
import { useSession } from '../lib/session';

/** The query key of the signed-in account's profile, shared by every page that shows or edits it. */
export const loginUserQueryKey = (token: string | null | undefined) => ['loginUserInfo', token ?? null] as const;

/**
 * The signed-in account's profile (GET /api/User/GetLoginUserInfo): name, type, phone, …, fetched
 * once and shared. `data` is undefined until it arrives.
 */
export function useLoginUser() {
  const token = useSession()?.token;
  return useQuery({ queryKey: loginUserQueryKey(token), queryFn: userApi.getLoginUserInfo, enabled: Boolean(token) });
}
