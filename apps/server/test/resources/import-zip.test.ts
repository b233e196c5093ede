import { IMPORT_LIMITS } from '@campus/contract';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkZipBounds } from '../../src/resources/engine/import/zip-bounds.js';
import { deflatedZip, manyPartsZip } from './zip-fixtures.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'zip-bounds-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

async function fileOf(name: string, content: Buffer): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, content);
  return file;
}

const messageOf = async (work: Promise<unknown>) => {
  const error = (await work.then(() => undefined, (e: unknown) => e)) as { reason?: { key: string } } | undefined;
  return error?.reason?.key;
};

describe('checkZipBounds', () => {
  it('passes a workbook-sized archive and counts what it unpacks', async () => {
    const file = await fileOf('small.zip', await deflatedZip('xl/worksheets/sheet1.xml', 100_000));
    expect(await checkZipBounds(file)).toMatchObject({ entries: 1, unpackedBytes: 100_000 });
  });

  it('refuses a bomb by its ratio as soon as it passes the floor, however small its header says it is', async () => {
    const file = await fileOf('bomb.zip', await deflatedZip('xl/worksheets/sheet1.xml', IMPORT_LIMITS.ratioFloorBytes * 2));
    expect(await messageOf(checkZipBounds(file))).toBe('import.zipRatio');
  });

  it('refuses more unpacked bytes than the cap, and more parts than the cap', async () => {
    const big = await fileOf('big.zip', await deflatedZip('xl/worksheets/sheet1.xml', 3_000_000));
    expect(await messageOf(checkZipBounds(big, { ...IMPORT_LIMITS, maxUnpackedBytes: 2_000_000 }))).toBe('import.zipTooLarge');
    const many = await fileOf('many.zip', manyPartsZip(IMPORT_LIMITS.maxEntries + 1));
    expect(await messageOf(checkZipBounds(many))).toBe('import.zipEntries');
  });

  it('answers "not a workbook" for bytes that are no zip', async () => {
    const file = await fileOf('text.zip', Buffer.from('name,school\n'));
    expect(await messageOf(checkZipBounds(file))).toBe('import.notXlsx');
  });
});
