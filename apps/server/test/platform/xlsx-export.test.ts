/**
 * The workbooks the console writes, read back by another library than the one that wrote them
 * (SheetJS, where exceljs writes): dates and times are date cells in China time with the console's
 * format, money is a number with two decimals, ids and phone numbers stay text with their zeros.
 * The import takes the date cells back.
 */
import { RESOURCES, type FieldDef } from '@campus/contract';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCell } from '../../src/resources/engine/import/cells.js';
import { sheetRows } from '../../src/resources/engine/import/sheet.js';
import { sheetNameOf, streamWorkbook, type SheetSpec } from '../../src/platform/xlsx-export.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { validAddBody } from '../resources/fixtures.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The first sheet as SheetJS reads it: each cell's type (s text, n number), format and shown text. */
function sheetOf(bytes: Buffer): XLSX.WorkSheet {
  const book = XLSX.read(bytes, { type: 'buffer', cellNF: true });
  return book.Sheets[book.SheetNames[0]!]!;
}

const sample: SheetSpec = {
  name: 'Sample',
  columns: [
    { key: 'serial', header: 'Serial', kind: 'text' },
    { key: 'phone', header: 'Phone', kind: 'text' },
    { key: 'price', header: 'Price', kind: 'money' },
    { key: 'count', header: 'Count', kind: 'number' },
    { key: 'day', header: 'Day', kind: 'date' },
    { key: 'at', header: 'At', kind: 'datetime' },
    { key: 'month', header: 'Month', kind: 'month' },
    { key: 'length', header: 'Length', kind: 'duration' },
  ],
  write(sheet) {
    // 17:30:05 UTC on 1 March is 01:30:05 on 2 March in China.
    sheet.addRow({ serial: '000123', phone: '013800138000', price: 12.345, count: 7, day: '2026-03-02', at: '2026-03-01T17:30:05.000Z', month: '2026-02-01', length: 3723 });
    sheet.addRow({ serial: 'Total', price: 1000 }, { bold: true });
  },
};

describe('the .xlsx export service', () => {
  it('writes each kind of cell as its kind, as SheetJS reads it', async () => {
    const sheet = sheetOf(await bytesOf(streamWorkbook([sample])));
    expect(sheet.A1).toMatchObject({ t: 's', v: 'Serial' });
    expect(sheet.A2).toMatchObject({ t: 's', v: '000123', z: '@' });
    expect(sheet.B2).toMatchObject({ t: 's', v: '013800138000' });
    expect(sheet.C2).toMatchObject({ t: 'n', v: 12.35, z: '0.00', w: '12.35' });
    expect(sheet.C3).toMatchObject({ t: 'n', v: 1000, w: '1000.00' });
    expect(sheet.D2).toMatchObject({ t: 'n', v: 7 });
    for (const [cell, format, shown] of [
      [sheet.E2, 'yyyy-mm-dd', '2026-03-02'],
      [sheet.F2, 'yyyy-mm-dd hh:mm:ss', '2026-03-02 01:30:05'],
      [sheet.G2, 'yyyy-mm', '2026-02'],
    ] as const) {
      expect(cell).toMatchObject({ t: 'n', z: format, w: shown });
      expect(XLSX.SSF.is_date(cell!.z as string)).toBe(true);
    }
    // A length of time in seconds is a time cell: a fraction of a day, shown as the console shows it.
    expect(sheet.H2).toMatchObject({ t: 'n', z: '[h]:mm:ss', w: '1:02:03' });
    expect(sheet.H2!.v).toBeCloseTo(3723 / 86400, 10);
    // The serial of 2 March 2026 01:30:05 (days since 1899-12-30).
    expect(sheet.F2!.v).toBeCloseTo(46083 + (1 * 3600 + 30 * 60 + 5) / 86400, 8);
  });

  it('writes a row given in column order as the same row given by key, and a totals row bold between plain ones', async () => {
    const values = { serial: '000123', phone: '013800138000', price: 12.345, count: 7, day: '2026-03-02', at: '2026-03-01T17:30:05.000Z', month: '2026-02-01', length: 3723 };
    const bytes = await bytesOf(
      streamWorkbook([
        {
          ...sample,
          async write(sheet) {
            sheet.addRow(values);
            sheet.addRow(sample.columns.map((column) => values[column.key as keyof typeof values]));
            sheet.addRow({ serial: 'Total', price: 1000 }, { bold: true });
            await sheet.drained();
            // A number column keeps General for numbers and writes what is no number as text; empty cells stay empty.
            sheet.addRow(['000124', null, 5, 'n/a', '', undefined, null, 60]);
          },
        },
      ]),
    );
    const sheet = sheetOf(bytes);
    for (const column of 'ABCDEFGH') expect(sheet[`${column}3`]).toEqual(sheet[`${column}2`]);
    expect(sheet.A5).toMatchObject({ t: 's', v: '000124', z: '@' });
    expect(sheet.C5).toMatchObject({ t: 'n', v: 5, w: '5.00' });
    expect(sheet.D5).toMatchObject({ t: 's', v: 'n/a' });
    expect(sheet.D2).toMatchObject({ t: 'n', v: 7, z: 'General' });
    expect(sheet.B5).toBeUndefined();
    expect(sheet.H5).toMatchObject({ t: 'n', z: '[h]:mm:ss', w: '0:01:00' });

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const rows = book.worksheets[0]!;
    expect(rows.getCell('A4').font?.bold).toBe(true);
    expect(rows.getCell('C4').font?.bold).toBe(true);
    for (const address of ['A2', 'A3', 'C3', 'A5', 'C5']) expect(rows.getCell(address).font?.bold).toBeFalsy();
    expect(rows.getCell('C5').numFmt).toBe('0.00');
    expect(rows.getCell('E2').numFmt).toBe('yyyy-mm-dd');
  });

  it("names a sheet within Excel's limits: 31 characters, none of its forbidden ones", async () => {
    expect(sheetNameOf('Devices stocked, shipped, installed')).toBe('Devices stocked, shipped, insta');
    expect(sheetNameOf('Q1/Q2: [draft]?')).toBe('Q1 Q2   draft');
    const bytes = await bytesOf(streamWorkbook([{ ...sample, name: 'Devices stocked, shipped, installed' }]));
    const book = XLSX.read(bytes, { type: 'buffer' });
    expect(book.SheetNames).toEqual(['Devices stocked, shipped, insta']);
    const exceljs = new ExcelJS.Workbook();
    await exceljs.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(exceljs.worksheets.map((sheet) => sheet.name)).toEqual(['Devices stocked, shipped, insta']);
  });

  it('keeps markup in text and drops the control characters XML cannot hold, over several sheets', async () => {
    const bytes = await bytesOf(
      streamWorkbook([
        { name: 'A & <B>', columns: [{ key: 'note', header: 'Note "1"', kind: 'text' }], write: (sheet) => sheet.addRow(['a<b>&"c"\u0001\u0008 d ']) },
        { name: 'Second', columns: [{ key: 'n', header: 'N', kind: 'number' }], write: (sheet) => sheet.addRow([3]) },
      ]),
    );
    const book = XLSX.read(bytes, { type: 'buffer' });
    expect(book.SheetNames).toEqual(['A & <B>', 'Second']);
    expect(book.Sheets['A & <B>']!.A1).toMatchObject({ t: 's', v: 'Note "1"' });
    expect(book.Sheets['A & <B>']!.A2).toMatchObject({ t: 's', v: 'a<b>&"c" d ' });
    expect(book.Sheets.Second!.A2).toMatchObject({ t: 'n', v: 3 });
    const exceljs = new ExcelJS.Workbook();
    await exceljs.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(exceljs.worksheets[0]!.getCell('A2').value).toBe('a<b>&"c" d ');
  });

  it('stops writing rows once the reader of the workbook has gone', async () => {
    let batches = 0;
    let failure: unknown;
    const stream = streamWorkbook([
      {
        ...sample,
        async write(sheet) {
          try {
            for (; batches < 1000; batches += 1) {
              for (let i = 0; i < 2000; i += 1) sheet.addRow({ serial: `${batches}-${i}`, phone: '013800138000', price: i, count: i });
              await sheet.drained();
            }
          } catch (error) {
            failure = error;
            throw error;
          }
        },
      },
    ]);
    stream.once('data', () => stream.destroy());
    await new Promise((resolve) => stream.once('close', resolve));
    await expect.poll(() => failure).toBeInstanceOf(Error);
    expect(batches).toBeLessThan(1000);
  });

  it('is read back by the import: a date cell and a date typed as text give the same date, a time cell its instant in China', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'xlsx-export-'));
    try {
      const file = path.join(dir, 'sample.xlsx');
      await writeFile(file, await bytesOf(streamWorkbook([sample])));
      const rows = [];
      for await (const row of sheetRows(file)) rows.push(row);
      const cells = rows[1]!.cells;
      expect(cells.get(1)).toBe('000123');
      const date: FieldDef = { kind: 'date', label: { zh: '日期', en: 'Date' } };
      const datetime: FieldDef = { kind: 'datetime', label: { zh: '时间', en: 'Time' } };
      expect(readCell(date, cells.get(5)!, 'en')).toEqual({ value: '2026-03-02' });
      expect(readCell(date, '2026-03-02', 'en')).toEqual({ value: '2026-03-02' });
      expect(readCell(date, '2026/3/2', 'en')).toEqual({ value: '2026-03-02' });
      expect(readCell(datetime, cells.get(6)!, 'en')).toEqual({ value: '2026-03-01T17:30:05.000Z' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /api/{Family}/Export cells', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAs('admin');
  });
  afterAll(() => t.close());

  it('writes a product model with its codes as text (leading zeros kept) and its prices as numbers with two decimals', async () => {
    const body = { ...(await validAddBody(t, RESOURCES.DeviceClass!, 0)), code: '007-XLSX', snPrefix: '0070', unitPrice: 123456, licensePrice1: 5 };
    expect((await t.injectAs(admin, { method: 'POST', url: '/api/DeviceClass/Add', payload: body })).json()).toMatchObject({ code: 200 });
    const response = await t.injectAs(admin, { method: 'GET', url: '/api/DeviceClass/Export?code=007-XLSX&maxCount=10' });
    expect(response.statusCode).toBe(200);
    const sheet = sheetOf(response.rawPayload);
    const header = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })[0]!;
    const cellOf = (label: string) => sheet[XLSX.utils.encode_cell({ r: 1, c: header.indexOf(label) })] as XLSX.CellObject;
    expect(cellOf('Model code')).toMatchObject({ t: 's', v: '007-XLSX' });
    expect(cellOf('Serial prefix')).toMatchObject({ t: 's', v: '0070' });
    expect(cellOf('Unit price')).toMatchObject({ t: 'n', v: 1234.56, z: '0.00' });
    expect(cellOf('Licence price 1 (1 yr)')).toMatchObject({ t: 'n', v: 0.05, w: '0.05' });
  });
});
