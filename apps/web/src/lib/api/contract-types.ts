/**
 * The request types of the contract's zod schemas, read off their `parse` so the web app needs no
 * zod import of its own and never redeclares a contract type.
 */
export type RequestOf<Schema extends { parse: (input: unknown) => unknown }> = ReturnType<Schema['parse']>;
