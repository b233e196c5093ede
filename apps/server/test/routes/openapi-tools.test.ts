/**
 * The OpenAPI document as third-party tools take it: swagger-parser validates it, `redocly lint`
 * (recommended rules) finds nothing, and openapi-typescript generates a client that compiles and
 * calls Search through openapi-fetch against a listening server.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const SERVER_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
}
type OpenApiDocument = { openapi: string; servers?: unknown[]; paths: Record<string, Record<string, Operation>> };

/** A client as a user writes it, against the generated types: a Search whose rows are typed. */
const CLIENT_SOURCE = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

export async function firstSchoolName(baseUrl: string, token: string): Promise<string | null | undefined> {
  const client = createClient<paths>({ baseUrl });
  const { data, error } = await client.POST('/api/School/Search', {
    body: { pageIndex: 1, pageSize: 5 },
    headers: { authorization: \`Bearer \${token}\` },
  });
  if (error) throw new Error(error.message);
  const total: number = data.data.total;
  if (total === 0) return undefined;
  return data.data.items[0]?.schoolName;
}
`;

// The document does not depend on the database: the PostgreSQL project would only repeat it.
describe.skipIf(process.env.TEST_DB === 'postgres')('the OpenAPI document and the tools people use on it', () => {
  let t: TestApp;
  let document: OpenApiDocument;
  let workDir: string;
  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
    // Inside the package, so the generated client resolves openapi-fetch as any project's code would (ignored by git).
    workDir = await mkdtemp(path.join(SERVER_ROOT, '.openapi-client-'));
    await writeFile(path.join(workDir, 'openapi.json'), JSON.stringify(document));
  });
  afterAll(async () => {
    await t.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('is OpenAPI 3.1 with servers, and swagger-parser validates it (every $ref resolves, the recursive trees included)', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    const tree = document.paths['/api/EducationDirectory/Tree']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(JSON.stringify(tree)).toContain('"$ref":"#/components/schemas/EducationDirectoryTreeNode"');
  });

  it('passes redocly lint with the recommended rules: no error, no warning', async () => {
    const cli = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
    const run = await promisify(execFile)(process.execPath, [cli, 'lint', path.join(workDir, 'openapi.json'), '--format=json', '--extends=recommended'], {
      cwd: workDir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('gives every operation a unique id and its failures in the envelope: 400, 401 and 403 when guarded, 503 when it can be shed', () => {
    const ids = new Set<string>();
    for (const [url, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${url}`;
        expect(operation.operationId, where).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
        expect(ids.has(operation.operationId!), `${where}: ${operation.operationId} twice`).toBe(false);
        ids.add(operation.operationId!);
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        const expected = ['400', ...(isPublic ? [] : ['401', '403']), ...(url.startsWith('/api/') && url !== '/api/health' ? ['503'] : [])];
        expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(expected));
        for (const status of expected) {
          const schema = operation.responses[status]?.content?.['application/json']?.schema;
          expect(Object.keys(schema?.properties ?? {}), `${where} ${status}`).toEqual(expect.arrayContaining(['code', 'message', 'data']));
        }
      }
    }
    expect(ids.has('School_Search')).toBe(true);
    expect(ids.has('Account_Login_web')).toBe(true);
    expect(document.paths['/uploads/{path}']?.get?.operationId).toBe('uploads_file');
  });

  it('generates a TypeScript client with openapi-typescript that compiles and calls Search through openapi-fetch', async () => {
    // A declaration file, as a project keeps generated types: the client is checked against it, the
    // 100,000-line file itself is not re-checked (skipLibCheck), which took most of a minute.
    await writeFile(path.join(workDir, 'api.d.ts'), astToString(await openapiTS(structuredClone(document) as never)));
    const clientPath = path.join(workDir, 'client.ts');
    await writeFile(clientPath, CLIENT_SOURCE);
    const program = ts.createProgram([clientPath], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(diagnostics).toEqual([]);

    const token = await t.loginAs('admin');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = (await import(clientPath)) as { firstSchoolName(baseUrl: string, token: string): Promise<string | null | undefined> };
    const fromInject = (await t.injectAs(token, { method: 'POST', url: '/api/School/Search', payload: { pageIndex: 1, pageSize: 5 } })).json();
    expect(await client.firstSchoolName(address, token)).toBe(fromInject.data.items[0].schoolName);
    await expect(client.firstSchoolName(address, 'not-a-token')).rejects.toThrow();
  }, 180_000);
});
