/**
 * zod schemas of what the engine's calls answer inside the envelope's `data`, derived from a
 * declaration where the answer carries rows: the server declares them as response schemas.
 */
import { z } from 'zod';
import type { ResourceDef } from './define.js';
import { rowSchemaOf } from './row-schemas.js';
import { builtOnce } from './built-once.js';

/** A state value on the wire: an enum value, a number or a text. */
const stateValueSchema = z.union([z.number(), z.string()]);

/** Answer of Search: one page of rows, whether more follow, and the total (exact, capped or estimated). */
export const searchAnswerSchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  return z.object({ items: z.array(rowSchemaOf(def)), total: z.number(), totalIsCapped: z.boolean(), totalIsEstimate: z.boolean(), hasMore: z.boolean() });
});

/** Answer of a log family's Search: key-paged, with cursors instead of a count (LogSearchAnswer). */
export const logSearchAnswerSchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  return z.object({
    items: z.array(rowSchemaOf(def)),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
    prevCursor: z.string().nullable(),
    range: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  });
});

/** Answer of Add (and of actions that name the row they touched). */
export const idAnswerSchema = z.object({ id: z.number() });
/** Answer of Update and Move: the row's new version. */
export const versionAnswerSchema = z.object({ id: z.number(), version: z.number() });
export const deletedAnswerSchema = z.object({ deleted: z.number() });
/** Answer of a toggle: how many rows were set. */
export const updatedAnswerSchema = z.object({ updated: z.number() });
/** Answer of a log family's Hide. */
export const hiddenAnswerSchema = z.object({ hidden: z.number() });

/** Answer of Options: id (or the asked unique field) and display value of rows in scope. */
export const referenceOptionsSchema = z.array(z.object({ value: z.union([z.number(), z.string()]), label: z.string().nullable() }));

/** Answer of a workflow transition (TransitionAnswer). */
export const transitionAnswerSchema = z.object({ id: z.number(), version: z.number(), state: stateValueSchema });

/** Answer of a batch transition: each row's new version and state, in the order of the ids given. */
export const batchTransitionAnswerSchema = z.object({ items: z.array(transitionAnswerSchema) });

/** Answer of History: the row's state steps, oldest first (StateHistoryEntry). */
export const stateHistorySchema = z.array(
  z.object({
    at: z.string(),
    userId: z.number().nullable(),
    userName: z.string().nullable(),
    from: stateValueSchema.nullable(),
    to: stateValueSchema,
    verb: z.string(),
    remark: z.string().nullable(),
  }),
);
