/**
 * Snapshot images of simulated terminals (the simulator, bench:intake, the journeys): small real PNGs,
 * a face-sized tile in a colour of the person, so the server's content check and the pages'
 * thumbnails see what a camera would send. Node only.
 */
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 48;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A 48×48 RGB PNG: a background in the colour of `seed` with a lighter oval where the face is. */
export function snapshotPng(seed: number): Buffer {
  const hue = (seed * 47) % 360;
  const [r, g, b] = hslToRgb(hue, 0.45, 0.45);
  const [fr, fg, fb] = hslToRgb((hue + 30) % 360, 0.35, 0.75);
  const rows: Buffer[] = [];
  for (let y = 0; y < SIZE; y += 1) {
    const row = Buffer.alloc(1 + SIZE * 3); // filter byte 0, then RGB
    for (let x = 0; x < SIZE; x += 1) {
      const inFace = ((x - 24) / 13) ** 2 + ((y - 22) / 17) ** 2 <= 1;
      row.set(inFace ? [fr, fg, fb] : [r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
