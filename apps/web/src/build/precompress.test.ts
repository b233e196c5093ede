import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDirectory } from './precompress';

describe('precompressDirectory', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes brotli and gzip copies of text files that decompress to the original, and skips the rest', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-precompress-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.mkdirSync(path.join(dir, '.vite'));
    const script = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}` })))};\n`;
    fs.writeFileSync(path.join(dir, 'assets/page-abc123.js'), script);
    fs.writeFileSync(path.join(dir, 'assets/tiny-abc123.js'), 'export {};');
    fs.writeFileSync(path.join(dir, 'assets/logo-abc123.png'), Buffer.alloc(4096, 7));
    fs.writeFileSync(path.join(dir, '.vite/manifest.json'), JSON.stringify({ rows: script }));

    const compressed = await precompressDirectory(dir);

    expect(compressed).toEqual([path.join(dir, 'assets/page-abc123.js')]);
    const br = fs.readFileSync(path.join(dir, 'assets/page-abc123.js.br'));
    const gz = fs.readFileSync(path.join(dir, 'assets/page-abc123.js.gz'));
    expect(zlib.brotliDecompressSync(br).toString()).toBe(script);
    expect(zlib.gunzipSync(gz).toString()).toBe(script);
    expect(br.length).toBeLessThan(script.length);
    expect(fs.existsSync(path.join(dir, 'assets/tiny-abc123.js.gz'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'assets/logo-abc123.png.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, '.vite/manifest.json.br'))).toBe(false);
  });
});
