/**
 * Phone rules, one per meaning of a field. The server's zod schemas and the web's form rules both
 * use these patterns, so a number the form accepts is a number the server accepts.
 */
import { z } from 'zod';
import { messageText } from './messages.js';

/**
 * What a phone field holds: `mobile` can receive an SMS (accounts, students, parents); a
 * `serviceLine` is a number people call (an agent's service phone, a school's or a consignee's
 * contact): a mobile, a landline with its area code, or a 400/800 service number.
 */
export type PhoneKind = 'mobile' | 'serviceLine';

/** A mainland mobile number: 11 digits starting with 1. */
export const MOBILE_PHONE_PATTERN = /^1\d{10}$/;

/**
 * A mobile; a landline `0` + area code + 7–8 digits, optionally with an extension (010-12345678-123);
 * or a nationwide service number 400/800 + 7 digits (400-800-0004, 4008000004).
 */
export const SERVICE_LINE_PATTERN = /^(1\d{10}|0\d{2,3}-?\d{7,8}(-\d{1,6})?|[48]00-?\d{3}-?\d{4})$/;

/** The pattern of each phone kind. */
export const PHONE_PATTERNS: Readonly<Record<PhoneKind, RegExp>> = {
  mobile: MOBILE_PHONE_PATTERN,
  serviceLine: SERVICE_LINE_PATTERN,
};

/** The server's zod schema of a phone of `kind` (trimmed), with its translated message. */
export function phoneSchema(kind: PhoneKind) {
  return z
    .string()
    .trim()
    .regex(PHONE_PATTERNS[kind], messageText(kind === 'mobile' ? 'validation.mobile' : 'validation.serviceLine'));
}
