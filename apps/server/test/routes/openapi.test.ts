import { RESOURCES, type ResourceDef } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentKey, forgetBuiltDocuments } from '../../src/plugins/external/swagger.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}
interface Operation {
  operationId?: string;
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

/** The properties a row of the family answers: its stamps, its fields but passwords, each reference's label. */
function rowPropertiesOf(def: ResourceDef): string[] {
  const fields = Object.entries(def.fields).filter(([, field]) => field.kind !== 'password');
  return ['id', 'createdAt', ...fields.flatMap(([name, field]) => (field.kind === 'reference' ? [name, `${name}Label`] : [name]))];
}

const jsonSchemaOf = (operation: Operation, status: string) => operation.responses[status]?.content?.['application/json']?.schema;

describe('GET /api/docs/json', () => {
  let t: TestApp;
  let document: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => t.close());

  const operationOf = (def: ResourceDef, method: 'get' | 'post', verb: string): Operation => {
    const operation = document.paths[`/api/${def.name}/${verb}`]?.[method];
    if (!operation) throw new Error(`${def.name}/${verb} is not documented`);
    return operation;
  };

  it.each(Object.values(RESOURCES).map((def) => [def.name, def] as const))('describes the rows %s Search and Get answer, and their errors', (_name, def) => {
    const search = operationOf(def, 'post', 'Search');
    const get = operationOf(def, 'get', 'Get');
    const searchedRow = jsonSchemaOf(search, '200')?.properties?.data?.properties?.items?.items;
    const readRow = jsonSchemaOf(get, '200')?.properties?.data;
    for (const row of [searchedRow, readRow]) expect(Object.keys(row?.properties ?? {})).toEqual(expect.arrayContaining(rowPropertiesOf(def)));
    for (const operation of [search, get]) {
      expect(operation.operationId).toBeTruthy();
      for (const status of ['400', '403', '404']) {
        expect(Object.keys(jsonSchemaOf(operation, status)?.properties ?? {})).toEqual(expect.arrayContaining(['code', 'message', 'key', 'params', 'data']));
      }
    }
    expect(search.operationId).toBe(`${def.name}_Search`);
  });

  it('describes field errors under data.errors of a 400', () => {
    const invalid = jsonSchemaOf(operationOf(RESOURCES.School!, 'post', 'Add'), '400');
    // OpenAPI 3.1: a nullable object is `anyOf: [object, { type: 'null' }]`.
    const data = invalid?.properties?.data?.anyOf?.find((branch) => branch.properties);
    expect(Object.keys(data?.properties?.errors?.items?.properties ?? {})).toEqual(expect.arrayContaining(['path', 'message', 'key', 'params']));
  });

  it('documents an export as a binary workbook', () => {
    const exported = operationOf(RESOURCES.School!, 'get', 'Export');
    expect(Object.keys(exported.responses['200']?.content ?? {})).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
  });

  it('gives every operation a unique id', () => {
    const ids = Object.values(document.paths).flatMap((methods) => Object.values(methods).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])));
    expect(ids.length).toBeGreaterThan(Object.keys(RESOURCES).length * 2);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  // Built once per process for the same routes and environment (plugins/external/swagger.ts). The
  // document does not depend on the database: the PostgreSQL project would only repeat this.
  it.skipIf(process.env.TEST_DB === 'postgres')('is kept for the process: byte for byte the document another app builds afresh, and shared by apps built alike', async () => {
    const kept = t.app.swagger();
    const other = await createTestApp();
    try {
      forgetBuiltDocuments();
      const fresh = other.app.swagger();
      expect(fresh).not.toBe(kept);
      expect(JSON.stringify(fresh)).toBe(JSON.stringify(kept));
      // Kept again: the first app now answers the document the other built, without building its own.
      expect(t.app.swagger()).toBe(fresh);
      expect(Object.isFrozen(fresh)).toBe(true);
    } finally {
      await other.close();
    }
  }, 90_000);

  it('keeps a document apart for another environment or database kind, whatever the database address', () => {
    const routes = [{ method: 'GET', url: '/api/health', config: { public: true } }] as never;
    const env = { DATABASE_URL: 'postgres://a/one', DATA_DIR: 'memory://', UPLOAD_IMAGE_MAX_MB: 10 };
    const key = documentKey(routes, env, 'postgres');
    expect(documentKey(routes, { ...env, DATABASE_URL: 'postgres://a/two', DATA_DIR: '/elsewhere' }, 'postgres')).toBe(key);
    expect(documentKey(routes, { ...env, UPLOAD_IMAGE_MAX_MB: 3 }, 'postgres')).not.toBe(key);
    expect(documentKey(routes, env, 'pglite')).not.toBe(key);
    expect(documentKey([{ method: 'GET', url: '/api/health', config: {} }] as never, env, 'postgres')).not.toBe(key);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(documentKey([{ method: 'GET', url: '/api/health', config: cyclic }] as never, env, 'postgres')).toBeUndefined();
  });
});
