/** Hand-made zip archives for the import's bounds: a bomb is a few kilobytes that inflate to many megabytes. */
import { createDeflateRaw } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer, start = 0xffffffff): number {
  let c = start;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return c;
}

interface Part {
  name: string;
  data: Buffer;
  size: number;
  crc: number;
  method: 0 | 8;
}

/** A zip of the given parts (stored or deflated), with local headers, a central directory and its end record. */
function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.method, 8);
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(part.method, 10);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(part.data.length, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.data);
    centrals.push(central, name);
    offset += local.length + name.length + part.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A zip of one part holding `size` spaces, deflated (about a thousandth of its size). */
export async function deflatedZip(name: string, size: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const block = Buffer.alloc(1_048_576, 0x20);
  let crc = 0xffffffff;
  for (let written = 0; written < size; written += block.length) {
    const piece = block.subarray(0, Math.min(block.length, size - written));
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  // 'end', not end()'s callback: the last compressed bytes arrive after the input is finished.
  const ended = new Promise((resolve) => deflate.once('end', resolve));
  deflate.end();
  await ended;
  return zipOf([{ name, data: Buffer.concat(chunks), size, crc: (crc ^ 0xffffffff) >>> 0, method: 8 }]);
}

/** A zip of `count` tiny stored parts. */
export function manyPartsZip(count: number): Buffer {
  return zipOf(Array.from({ length: count }, (_, i) => {
    const data = Buffer.from(`<x>${i}</x>`);
    return { name: `xl/part${i}.xml`, data, size: data.length, crc: (crc32(data) ^ 0xffffffff) >>> 0, method: 0 as const };
  }));
}
