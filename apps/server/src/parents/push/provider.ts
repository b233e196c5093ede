/**
 * Where a parent's push goes. The default provider sends nothing: the push outbox row it is handed is
 * the record (state `outbox`), read on the console's pushOutbox page as the SMS outbox is. JPush takes
 * over when its keys are set (jpush.ts).
 */
import type { PushPlatform, PushState } from '@campus/contract';

/** One push: a notice to one device. */
export interface PushMessage {
  deliveryId: number;
  noticeId: number;
  platform: PushPlatform;
  token: string;
  title: string;
  content: string;
}

/** A provider's answer: sent (or kept in the outbox), or failed — retried unless `permanent`. */
export type PushResult = { ok: true } | { ok: false; error: string; permanent?: boolean };

export interface PushProvider {
  /** Stored on the outbox row, so the console says who delivered it. */
  name: string;
  /** The state of a push this provider accepted. */
  acceptedState: Extract<PushState, 'sent' | 'outbox'>;
  send(message: PushMessage): Promise<PushResult>;
}

/** The default: the outbox row is the delivery; nothing leaves the server. */
export const outboxPushProvider: PushProvider = {
  name: 'outbox',
  acceptedState: 'outbox',
  send: async () => ({ ok: true }),
};
