import { ErrorCode } from '@campus/contract';
import { AppError, badRequest, msg } from './errors.js';

interface PgErrorFields {
  code: string;
  constraint?: string;
  column?: string;
  table?: string;
  detail?: string;
}

const PG_SQLSTATE = /^[0-9A-Z]{5}$/;

/** The driver error behind a failure: drizzle wraps it in `cause`, PGlite and pg raise it directly. */
function findPgError(error: unknown): PgErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const fields = current as Partial<PgErrorFields> & { cause?: unknown };
    if (typeof fields.code === 'string' && PG_SQLSTATE.test(fields.code) && ('constraint' in fields || 'table' in fields || 'detail' in fields || 'severity' in fields)) {
      return fields as PgErrorFields;
    }
    current = fields.cause;
  }
  return undefined;
}

/** Whether a failure is PostgreSQL's `code` (a SQLSTATE) raised by the constraint named `constraint`. */
export function isConstraintError(error: unknown, code: string, constraint: string): boolean {
  const pgError = findPgError(error);
  return pgError?.code === code && pgError.constraint === constraint;
}

const snakeToCamel = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The field a constraint is about. Our constraint names follow `<table>_<column(s)>_(unique|fkey)`;
 * the detail text "Key (login_name)=(x)" is the fallback for names drizzle-kit generated.
 */
function fieldOf(pgError: PgErrorFields): string {
  const keyColumns = /Key \(([^)]+)\)/.exec(pgError.detail ?? '')?.[1];
  const column = pgError.column ?? keyColumns?.split(',').pop()?.trim();
  if (column) return snakeToCamel(column);
  const name = pgError.constraint ?? '';
  const withoutTable = pgError.table && name.startsWith(`${pgError.table}_`) ? name.slice(pgError.table.length + 1) : name;
  return snakeToCamel(withoutTable.replace(/_(unique|fkey|key|idx|check)$/, '')) || 'id';
}

/**
 * Translates PostgreSQL constraint violations into field errors (HTTP 400), so bad input never
 * becomes a 500: 23505 unique → "already exists", 23503 foreign key → reference error (23001,
 * a RESTRICT key, → still used),
 * 23502 not null → required; a transaction PostgreSQL rolled back to break a deadlock → 503 "try
 * again". Anything else: undefined (a real server error).
 */
export function translatePgError(error: unknown): AppError | undefined {
  const pgError = findPgError(error);
  if (!pgError) return undefined;
  const path = fieldOf(pgError);
  switch (pgError.code) {
    case '23505':
      return badRequest([{ path, ...msg('validation.alreadyExists') }]);
    // 23001: a RESTRICT foreign key (pick_up_persons → students) refuses the delete at once, with
    // "is referenced from" where NO ACTION's 23503 says "is still referenced from".
    case '23001':
      return badRequest([{ path: 'id', ...msg('validation.stillUsed') }], msg('error.inUse'));
    case '23503':
      return /is still referenced/.test(pgError.detail ?? '')
        ? badRequest([{ path: 'id', ...msg('validation.stillUsed') }], msg('error.inUse'))
        : badRequest([{ path, ...msg('validation.missingReference') }]);
    case '23502':
      return badRequest([{ path, ...msg('validation.required') }]);
    case '23514':
      return badRequest([{ path, ...msg('validation.notAllowed') }]);
    case '22001':
      return badRequest([{ path, ...msg('validation.tooLongValue') }]);
    // PostgreSQL ended the transaction to break a deadlock (40P01) or a serialization failure (40001):
    // it was rolled back whole, so the same call may simply be sent again (Retry-After, set by the handler).
    case '40P01':
    case '40001':
      return new AppError(503, ErrorCode.ServiceUnavailable, msg('error.writeCollided'));
    default:
      return undefined;
  }
}
