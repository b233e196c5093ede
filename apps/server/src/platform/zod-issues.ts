/**
 * zod issues as messages of the catalogue: the schemas' own texts are encoded keys (`messageText`),
 * zod's built-in checks are mapped by issue code, so a Chinese console never shows zod's English.
 */
import { parseMessageText, type MessageParamsOf, type ServerMessage } from '@campus/contract';
import { msg } from './errors.js';

/** The parts of a zod issue the mapping reads (fastify-type-provider-zod passes them as `params`). */
export interface IssueFacts {
  code?: string;
  message?: string;
  input?: unknown;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  expected?: string;
  format?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
}

const bound = (value: number | bigint | undefined): MessageParamsOf => ({ min: Number(value), max: Number(value) });

/** The catalogue message of one zod issue. */
export function messageOfIssue(issue: IssueFacts): ServerMessage {
  const encoded = issue.message ? parseMessageText(issue.message) : undefined;
  if (encoded) return encoded;
  const isList = issue.origin === 'array' || issue.origin === 'set';
  const isText = issue.origin === 'string';
  switch (issue.code) {
    case 'invalid_type':
      // zod leaves the input out of its issues; its own text says when nothing was sent.
      if (issue.input === undefined && /received undefined/.test(issue.message ?? '')) return msg('validation.required');
      if (issue.expected === 'number' || issue.expected === 'int') return msg('validation.number');
      if (issue.expected === 'string') return msg('validation.text');
      return msg('validation.invalid');
    case 'too_small':
      if (isText && Number(issue.minimum) === 1) return msg('validation.required');
      return { key: isList ? 'validation.tooFewItems' : isText ? 'validation.tooShort' : 'validation.tooSmall', params: bound(issue.minimum) };
    case 'too_big':
      return { key: isList ? 'validation.tooManyItems' : isText ? 'validation.tooLong' : 'validation.tooBig', params: bound(issue.maximum) };
    case 'invalid_format':
      return msg(issue.format === 'datetime' ? 'validation.datetime' : 'validation.format');
    case 'invalid_value':
      return msg('validation.oneOf', { values: (issue.values ?? []).map(String) });
    case 'unrecognized_keys':
      return msg('validation.unknownField', { fields: issue.keys ?? [] });
    case 'not_multiple_of':
      return msg('validation.integer');
    default:
      return msg('validation.invalid');
  }
}
