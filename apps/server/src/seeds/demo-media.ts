/**
 * The demo's pictures and songs, drawn and synthesised in code and put into the upload store the
 * upload calls use, so the startup pages, posters, terminal ads and music show real thumbnails and
 * durations on a fresh start (the repository ships no binary samples); with them the installation
 * packages of the version pages (demo-packages.ts).
 */
import { crc32, deflateSync } from 'node:zlib';
import { snapshotPng } from '@campus/contract/sample-snapshot';
import type { UploadStorage } from '../platform/uploads.js';
import { storeDemoFile, type DemoFile } from './demo-files.js';
import { storeDemoPackages, type DemoPackages } from './demo-packages.js';

type Rgb = readonly [number, number, number];

/** One PNG chunk: length, type, data, CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A truecolour PNG of `width` × `height`: a diagonal gradient between two colours with soft circles,
 * the look of a campaign picture without any text to translate.
 */
export function demoPng(width: number, height: number, from: Rgb, to: Rgb, seed: number): Buffer {
  const circles = Array.from({ length: 5 }, (_, index) => ({
    x: ((seed * 97 + index * 211) % 100) / 100,
    y: ((seed * 53 + index * 137) % 100) / 100,
    r: 0.12 + ((seed + index * 31) % 10) / 60,
  }));
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const rowStart = y * (width * 3 + 1);
    raw[rowStart] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const t = (x / width + y / height) / 2;
      let light = 0;
      for (const circle of circles) {
        const dx = x / width - circle.x;
        const dy = (y / height - circle.y) * (height / width);
        if (Math.sqrt(dx * dx + dy * dy) < circle.r) light += 0.12;
      }
      const offset = rowStart + 1 + x * 3;
      for (let channel = 0; channel < 3; channel += 1) {
        const base = from[channel]! + (to[channel]! - from[channel]!) * t;
        raw[offset + channel] = Math.min(255, Math.round(base + (255 - base) * light));
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

const SAMPLE_RATE = 8000;

/**
 * A mono 8-bit WAV playing `notes` (frequencies in Hz, 0 = rest) for `noteSeconds` each, with a short
 * fade per note so the notes do not click: a real tune any player reads, a few kilobytes a second.
 */
export function demoWav(notes: readonly number[], noteSeconds: number): Buffer {
  const perNote = Math.round(SAMPLE_RATE * noteSeconds);
  const samples = Buffer.alloc(perNote * notes.length);
  notes.forEach((frequency, index) => {
    for (let i = 0; i < perNote; i += 1) {
      const envelope = Math.min(1, i / 200, (perNote - i) / 400);
      const value = frequency === 0 ? 0 : Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE) * 0.5 * envelope;
      samples[index * perNote + i] = Math.round(128 + value * 127);
    }
  });
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE, 28); // bytes per second
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

// C major scale notes (Hz) for the demo tunes.
const C4 = 262;
const D4 = 294;
const E4 = 330;
const F4 = 349;
const G4 = 392;
const A4 = 440;

/** The demo's media, stored: pictures for startup pages, posters and ads, tunes with their lengths, and installation packages. */
export interface DemoMedia {
  startupImages: DemoFile[];
  posterImages: DemoFile[];
  songs: { file: DemoFile; seconds: number }[];
  packages: DemoPackages;
  /** The gates' snapshots: one face tile per person the demo's cameras saw (demo-recognition.ts). */
  snapshots: DemoFile[];
  all: DemoFile[];
}

/** Distinct face tiles for the demo's recognition records; people share them beyond this many. */
const SNAPSHOT_TILES = 24;

export async function storeDemoMedia(storage: UploadStorage, now: Date): Promise<DemoMedia> {
  const startupImages = [
    await storeDemoFile(storage, demoPng(180, 320, [22, 119, 255], [114, 46, 209], 1), 'png', now),
    await storeDemoFile(storage, demoPng(180, 320, [250, 140, 22], [245, 34, 45], 2), 'png', now),
    await storeDemoFile(storage, demoPng(180, 320, [19, 194, 194], [82, 196, 26], 3), 'png', now),
  ];
  const posterImages = [
    await storeDemoFile(storage, demoPng(320, 180, [235, 47, 150], [250, 173, 20], 4), 'png', now),
    await storeDemoFile(storage, demoPng(320, 180, [82, 196, 26], [19, 194, 194], 5), 'png', now),
    await storeDemoFile(storage, demoPng(320, 180, [22, 119, 255], [19, 194, 194], 6), 'png', now),
    await storeDemoFile(storage, demoPng(320, 180, [114, 46, 209], [235, 47, 150], 7), 'png', now),
  ];
  // "Twinkle, twinkle" and "Frère Jacques" openings, and a scale: 4–8 seconds each.
  const tunes: [number[], number][] = [
    [[C4, C4, G4, G4, A4, A4, G4, 0, F4, F4, E4, E4, D4, D4, C4, 0], 0.5],
    [[C4, D4, E4, C4, C4, D4, E4, C4, E4, F4, G4, 0, E4, F4, G4, 0], 0.5],
    [[C4, D4, E4, F4, G4, A4, G4, F4, E4, D4, C4, 0], 0.4],
  ];
  const songs = [];
  for (const [notes, noteSeconds] of tunes) {
    songs.push({ file: await storeDemoFile(storage, demoWav(notes, noteSeconds), 'wav', now), seconds: Math.round(notes.length * noteSeconds) });
  }
  const packages = await storeDemoPackages(storage, now);
  const packageFiles = [...packages.firmware, ...packages.apks].map((item) => item.file);
  const snapshots = [];
  for (let seed = 1; seed <= SNAPSHOT_TILES; seed += 1) snapshots.push(await storeDemoFile(storage, snapshotPng(seed), 'png', now));
  return {
    startupImages,
    posterImages,
    songs,
    packages,
    snapshots,
    all: [...startupImages, ...posterImages, ...songs.map((song) => song.file), ...packageFiles, ...snapshots],
  };
}
