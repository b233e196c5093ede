import { useSyncExternalStore } from 'react';
import type { LoginResponse } from '@campus/contract';
import { STORAGE_KEYS, isRecord, readSessionJson, removeSessionKeys, writeSessionJson } from './storage';

/** The logged-in session as kept in sessionStorage under SESSION_STORAGE_KEY (SEED-SPEC section 3). */
export interface Session {
  token: string;
  schoolName: string;
  userName: string;
  userId: number;
  schoolId: number;
  classId: number;
  tokenTime: string;
  /** Authorised frame IDs ("menu authority") returned at login. */
  frameIds: number[];
}

function isSession(value: unknown): value is Session {
  return (
    isRecord(value) &&
    typeof value.token === 'string' &&
    value.token.length > 0 &&
    typeof value.userName === 'string' &&
    Array.isArray(value.frameIds) &&
    value.frameIds.every((id) => typeof id === 'number')
  );
}

export function sessionFromLogin(answer: LoginResponse): Session {
  return {
    token: answer.Token,
    schoolName: answer.SchoolName,
    userName: answer.UserName,
    userId: answer.UserId,
    schoolId: answer.SchoolId,
    classId: answer.ClassId,
    tokenTime: answer.TokenTime,
    frameIds: answer.Frames.map((frame) => frame.ID),
  };
}

const listeners = new Set<() => void>();
// Cached so useSyncExternalStore sees a stable object between writes.
let cached: { raw: string | null; session: Session | null } = { raw: null, session: null };

export function readSession(): Session | null {
  let raw: string | null = null;
  try {
    raw = window.sessionStorage.getItem(STORAGE_KEYS.session);
  } catch {
    raw = null;
  }
  if (raw !== cached.raw) {
    cached = { raw, session: raw === null ? null : readSessionJson(STORAGE_KEYS.session, isSession) };
  }
  return cached.session;
}

export function getToken(): string | null {
  return readSession()?.token ?? null;
}

export function saveSession(session: Session): void {
  writeSessionJson(STORAGE_KEYS.session, session);
  listeners.forEach((listener) => listener());
}

/**
 * Forgets the whole session: token, tab list, user info, menu authority, frame id and menu data
 * (SEED-SPEC section 4). The language choice is not session data and stays.
 */
export function clearSession(): void {
  removeSessionKeys(Object.values(STORAGE_KEYS));
  listeners.forEach((listener) => listener());
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current session, re-rendering on login, log-out and token invalidation. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, readSession, readSession);
}
