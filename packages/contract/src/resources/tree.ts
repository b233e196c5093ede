/** The calls of tree families (`tree` in the declaration) beyond the generic ones. */
import { z } from 'zod';
import { idSchema } from '../integer-schemas.js';

/** Body of POST /api/{Family}/Move: the node, its new parent (null = a root) and its position among the new siblings. */
export const treeMoveSchema = z.strictObject({
  id: idSchema,
  parentId: idSchema.nullable(),
  orderIndex: z.coerce.number().int().min(0).max(100_000),
});
export type TreeMoveRequest = z.infer<typeof treeMoveSchema>;
