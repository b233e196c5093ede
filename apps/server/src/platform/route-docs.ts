/** How a declared call documents itself in OpenAPI: one tag per family, a unique operation id, every answer. */
import type { z } from 'zod';
import { envelopeSchema, errorResponses, xlsxResponse } from './envelope.js';

/** The operation id of a family's call, e.g. `School_Search`: unique because paths are `/api/{Family}/{verb}`. */
export function operationIdOf(family: string, verb: string): string {
  return `${family}_${verb}`;
}

/** Schema parts of a JSON call: its tag, operation id, summary, the success envelope around `data` and the failures. */
export function documentedCall<T extends z.ZodType>(family: string, verb: string, summary: string, data: T) {
  return { tags: [family], operationId: operationIdOf(family, verb), summary, response: { 200: envelopeSchema(data), ...errorResponses } };
}

/** Schema parts of an export: the workbook by content type (a stream, never serialized) and the failures. */
export function documentedExport(family: string, summary: string) {
  return { tags: [family], operationId: operationIdOf(family, 'Export'), summary, response: { 200: xlsxResponse, ...errorResponses } };
}
