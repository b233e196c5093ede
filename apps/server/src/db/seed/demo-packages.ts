/**
 * The demo's installation packages, generated in code and put into the upload store like the demo's
 * pictures and songs: firmware images for the terminal versions (versionManage) and APKs for the
 * Android app releases (appVersionManage). Small (a few kilobytes) but real files: an APK is a zip
 * archive the package upload would accept, and each file's recorded SHA-256 is the hash of its bytes,
 * so a device (or the simulator) that downloads one checks it as it would a vendor's package.
 */
import { crc32 } from 'node:zlib';
import type { UploadStorage } from '../../platform/uploads.js';
import { storeDemoFile, type DemoFile } from './demo-files.js';

/** A deterministic byte sequence for a package's payload: the same demo on every start, and no two packages alike. */
function payload(seed: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    // xorshift32: cheap and well spread, so the firmware does not compress to nothing.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/** A firmware image: a readable header naming the model and version, then the (generated) image. */
export function demoFirmware(model: string, version: string, seed: number): Buffer {
  const header = Buffer.from(`CAMPUS-FW\n${JSON.stringify({ model, version, built: '2026-11-01' })}\n`, 'utf8');
  return Buffer.concat([header, payload(seed, 6 * 1024 + (seed % 7) * 512)]);
}

/**
 * A zip archive holding `entries` uncompressed (method 0): local headers, the central directory and
 * its end record, as APPNOTE.TXT lays them out. Enough for an APK's container: the package upload
 * checks the zip signature, and any unzip tool lists the entries.
 */
export function demoZip(entries: readonly { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4); // version needed: 1.0
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    central.writeUInt16LE(10, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** An Android app's APK: its manifest as text (a real APK's is binary XML) and a generated classes.dex. */
export function demoApk(packageName: string, versionName: string, versionCode: number): Buffer {
  const manifest = `<manifest package="${packageName}" android:versionName="${versionName}" android:versionCode="${versionCode}"/>\n`;
  return demoZip([
    { name: 'AndroidManifest.xml', data: Buffer.from(manifest, 'utf8') },
    { name: 'classes.dex', data: payload(versionCode, 4096) },
  ]);
}

/** A terminal package the demo ships: the model it is built for and its version. */
export interface DemoFirmware {
  deviceCode: string;
  versionNumber: string;
  file: DemoFile;
}

/** An Android release's APK, by app type (APP_TYPE_OPTIONS) and version code. */
export interface DemoApk {
  appType: number;
  versionCode: number;
  file: DemoFile;
}

export interface DemoPackages {
  firmware: DemoFirmware[];
  apks: DemoApk[];
}

/** The terminal packages of the demo: two or three versions of each face terminal and of the card reader. */
export const DEMO_FIRMWARE: readonly { deviceCode: string; versionNumber: string }[] = [
  { deviceCode: 'GATE-G3', versionNumber: '2.4.1' },
  { deviceCode: 'GATE-G3', versionNumber: '2.5.0' },
  { deviceCode: 'GATE-G3', versionNumber: '2.6.0' },
  { deviceCode: 'ATT-A8', versionNumber: '1.8.2' },
  { deviceCode: 'ATT-A8', versionNumber: '1.9.0' },
  { deviceCode: 'CARD-R2', versionNumber: '3.0.4' },
  { deviceCode: 'CARD-R2', versionNumber: '3.1.0' },
];

/** The Android releases that carry an APK (iOS releases point at the App Store instead). */
export const DEMO_APKS: readonly { appType: number; versionNumber: string; versionCode: number }[] = [
  { appType: 1, versionNumber: '3.1.0', versionCode: 30100 },
  { appType: 1, versionNumber: '3.2.0', versionCode: 30200 },
  { appType: 1, versionNumber: '3.2.1', versionCode: 30201 },
  { appType: 2, versionNumber: '2.0.3', versionCode: 20003 },
  { appType: 2, versionNumber: '2.1.0', versionCode: 20100 },
];

const APP_PACKAGES: Record<number, string> = { 1: 'com.campusops.parent', 2: 'com.campusops.teacher' };

export async function storeDemoPackages(storage: UploadStorage, now: Date): Promise<DemoPackages> {
  const firmware: DemoFirmware[] = [];
  for (const [index, version] of DEMO_FIRMWARE.entries()) {
    firmware.push({ ...version, file: await storeDemoFile(storage, demoFirmware(version.deviceCode, version.versionNumber, 1000 + index), 'bin', now) });
  }
  const apks: DemoApk[] = [];
  for (const release of DEMO_APKS) {
    const bytes = demoApk(APP_PACKAGES[release.appType]!, release.versionNumber, release.versionCode);
    apks.push({ appType: release.appType, versionCode: release.versionCode, file: await storeDemoFile(storage, bytes, 'apk', now) });
  }
  return { firmware, apks };
}
