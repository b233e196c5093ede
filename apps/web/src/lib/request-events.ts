/**
 * Events the request client raises for codes the seed turns into app-level reactions rather than
 * a plain toast (SEED-SPEC section 8). The shell listens and navigates; the login page listens too.
 */
export interface RequestEventMap {
  /** Code 600: text to show under the login form. */
  loginMessage: { message: string };
  /** Code 601: the account must verify its phone and set a new password. */
  mustChangePassword: { userName: string; phoneMasked: string | null };
  /** Codes '10010' / '10011': the session was cleared; the app goes to /login. */
  sessionEnded: { code: string };
}

type Listener<K extends keyof RequestEventMap> = (payload: RequestEventMap[K]) => void;

const listeners: { [K in keyof RequestEventMap]: Set<Listener<K>> } = {
  loginMessage: new Set(),
  mustChangePassword: new Set(),
  sessionEnded: new Set(),
};

export function onRequestEvent<K extends keyof RequestEventMap>(event: K, listener: Listener<K>): () => void {
  listeners[event].add(listener);
  return () => {
    listeners[event].delete(listener);
  };
}

export function emitRequestEvent<K extends keyof RequestEventMap>(event: K, payload: RequestEventMap[K]): void {
  listeners[event].forEach((listener) => listener(payload));
}
