/**
 * Build-time only (Node, run by `vite build`; the app never imports it): writes a brotli (.br) and a
 * gzip (.gz) copy next to each compressible file of the build, so the server sends the smallest one
 * the browser accepts without compressing on every request (see the server's web-app plugin).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats worth compressing; images and fonts of the build are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm)$/;
/** Below this a compressed copy saves less than a packet and costs a file. */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Writes `<file>.br` and `<file>.gz` for every compressible file of `dir` of at least 1 kB, keeping
 * only copies that are smaller than the file. Vite's own folder (.vite: the manifest) is skipped.
 * Returns the files it compressed.
 */
export async function precompressDirectory(dir: string): Promise<string[]> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file) && !path.relative(dir, file).startsWith('.vite'));
  const compressed: string[] = [];
  await Promise.all(
    files.map(async (file) => {
      const bytes = await fs.readFile(file);
      if (bytes.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        gzip(bytes, { level: 9 }),
      ]);
      if (br.length < bytes.length) await fs.writeFile(`${file}.br`, br);
      if (gz.length < bytes.length) await fs.writeFile(`${file}.gz`, gz);
      compressed.push(file);
    }),
  );
  return compressed.sort();
}

/** The Vite plugin: precompresses the output folder once the production build is written. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'campus-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await precompressDirectory(outDir);
      this.info?.(`precompressed ${files.length} files (brotli + gzip)`);
    },
  };
}
