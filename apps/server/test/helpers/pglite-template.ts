import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';

type TemplateName = 'pgliteTemplate' | 'pgliteMigratedTemplate';
const templates = new Map<TemplateName, Promise<Uint8Array>>();

/**
 * The run's PGlite template (test/setup/template-database.ts) as a dump to open a database from.
 * Test files share a worker (isolation is off), so each worker reads the file once. PGlite reads a
 * dump only through `arrayBuffer()`, which this one answers with a copy of the bytes: Node's Blob
 * streams them in chunks and concatenates them, which for the 70 MB template cost more CPU and
 * garbage than the copy.
 */
export async function pgliteTemplateDump(name: TemplateName = 'pgliteTemplate'): Promise<Blob> {
  let read = templates.get(name);
  if (!read) {
    read = readFile(inject(name));
    templates.set(name, read);
  }
  const bytes = await read;
  const dump = new Blob([]);
  dump.arrayBuffer = () => Promise.resolve(bytes.slice().buffer);
  return dump;
}
