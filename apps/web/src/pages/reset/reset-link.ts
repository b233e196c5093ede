/** What /forget and the 601 event hand to /reset besides the query string. */
export interface ResetPageState {
  smsSentAt?: number;
  phoneMasked?: string | null;
}

export function resetPathWith(params: { userName: string; phoneNum?: string }): string {
  const query = new URLSearchParams({ userName: params.userName });
  if (params.phoneNum) query.set('phoneNum', params.phoneNum);
  return `/reset?${query.toString()}`;
}

export function readResetPageState(state: unknown): ResetPageState {
  if (typeof state !== 'object' || state === null) return {};
  const { smsSentAt, phoneMasked } = state as Record<string, unknown>;
  return {
    smsSentAt: typeof smsSentAt === 'number' ? smsSentAt : undefined,
    phoneMasked: typeof phoneMasked === 'string' ? phoneMasked : null,
  };
}
