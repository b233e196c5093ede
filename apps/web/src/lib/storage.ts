import { SESSION_STORAGE_KEY } from '@campus/contract';

/**
 * Every sessionStorage key the console writes. All of them belong to one logged-in session, so
 * log-out (and a token the server calls invalid) removes every one: SEED-SPEC section 4.
 */
export const STORAGE_KEYS = {
  /** Token, user info and menu authority (the authorised frame IDs). */
  session: SESSION_STORAGE_KEY,
  /** Open tabs and the active one. */
  tabs: 'campus-ops-tabs',
  /** Selected menu group and frame id. */
  menuSelection: 'campus-ops-menu-selection',
  /** Last navigation tree, so a reload draws the menu before the server answers. */
  menuData: 'campus-ops-menu-data',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Reads a JSON value; a missing, unreadable or rejected value is `null` (storage is user-editable). */
export function readSessionJson<T>(key: StorageKey, isValid: (value: unknown) => value is T): T | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeSessionJson(key: StorageKey, value: unknown): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Quota or private mode: the console still works, it just forgets on reload.
  }
}

export function removeSessionKeys(keys: readonly StorageKey[]): void {
  for (const key of keys) {
    try {
      window.sessionStorage.removeItem(key);
    } catch {
      // Nothing to clean if storage is unavailable.
    }
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
