import fs from 'node:fs';
import { mergeConfig } from 'vite';
import base from './vite.config.ts';
export default mergeConfig(base, {
  plugins: [{
    name: 'dump-modules',
    generateBundle(_o: unknown, bundle: Record<string, any>) {
      const out: Record<string, Record<string, number>> = {};
      for (const [file, chunk] of Object.entries(bundle)) {
        if (chunk.type !== 'chunk') continue;
        out[file] = {};
        for (const [id, m] of Object.entries(chunk.modules as Record<string, any>)) out[file][id] = m.renderedLength;
      }
      fs.writeFileSync('/tmp/an/modules.json', JSON.stringify(out));
    },
  }],
});
