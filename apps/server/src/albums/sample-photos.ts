/**
 * Photos the demo seed, the tests and the bench upload as a teacher would: JPEGs of a given size
 * (a sky, a sun and a meadow in colours varied by `seed`), so layouts, crops and dpi warnings work on
 * real image files without shipping any.
 */
import jpeg from 'jpeg-js';

/** A `width` × `height` JPEG at quality 80. */
export function samplePhoto(width: number, height: number, seed: number): Buffer {
  return Buffer.from(jpeg.encode({ data: samplePixels(width, height, seed), width, height }, 80).data);
}

/**
 * A portrait photo as a phone stores it: the `width` × `height` picture's pixels turned a quarter
 * anticlockwise (stored `height` × `width`, its top the stored left edge) with EXIF orientation 6,
 * which turns it a quarter clockwise, upright again, wherever it is shown.
 */
export function sampleSidewaysPortrait(width: number, height: number, seed: number): Buffer {
  const seen = samplePixels(width, height, seed);
  const stored = Buffer.alloc(seen.length);
  // Stored pixel (x, y) of a height × width image is the seen pixel (width − 1 − y, x).
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < height; x++) seen.copy(stored, (y * height + x) * 4, ((x * width) + (width - 1 - y)) * 4, ((x * width) + (width - 1 - y)) * 4 + 4);
  }
  return withExifOrientation(Buffer.from(jpeg.encode({ data: stored, width: height, height: width }, 80).data), 6);
}

function samplePixels(width: number, height: number, seed: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  const hue = (seed * 47) % 360;
  const sky = hsl(hue, 0.55, 0.72);
  const ground = hsl((hue + 120) % 360, 0.45, 0.45);
  const sun = hsl((hue + 40) % 360, 0.9, 0.6);
  const horizon = Math.floor(height * (0.55 + ((seed % 5) - 2) * 0.04));
  const sunX = width * (0.25 + ((seed * 13) % 50) / 100);
  const sunY = height * 0.3;
  const sunR = Math.min(width, height) * 0.12;
  for (let y = 0; y < height; y++) {
    const shade = 1 - (y / height) * 0.35;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inSun = (x - sunX) ** 2 + (y - sunY) ** 2 < sunR ** 2;
      const colour = inSun ? sun : y < horizon ? sky : ground;
      data[i] = colour[0]! * shade;
      data[i + 1] = colour[1]! * shade;
      data[i + 2] = colour[2]! * shade;
      data[i + 3] = 255;
    }
  }
  return data;
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/**
 * The JPEG with an EXIF block stating `orientation` (1–8) put after its start: what a phone writes
 * when it stores a portrait photo as landscape pixels (6: turn 90° clockwise to see it).
 */
export function withExifOrientation(photo: Buffer, orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM\0*', 0, 'latin1');
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([photo.subarray(0, 2), segment, body, photo.subarray(2)]);
}
