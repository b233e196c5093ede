/**
 * The demo's installation packages, generated in code and put into the upload store like the demo's
 * pictures and songs: firmware images for the terminal versions (versionManage) and APKs for the
 * Android app releases (appVersionManage). Small (a few kilobytes) but real files: an APK is a zip
 * archive the package upload would accept, and each file's recorded SHA-256 is the hash of its bytes,
 * so a device (or the simulator) that downloads one checks it as it would a vendor's package.
 */
import JSZip from 'jszip';
import type { UploadStorage } from '../platform/uploads.js';
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

/** Zip entries' modification time: fixed, so every start of the demo writes the same bytes. */
const ZIP_DATE = new Date('2026-11-01T00:00:00Z');

/**
 * A zip archive holding `entries` uncompressed: enough for an APK's container (the package upload
 * checks the zip signature, and any unzip tool lists the entries).
 */
async function demoZip(entries: readonly { name: string; data: Buffer }[]): Promise<Buffer> {
  const zip = new JSZip();
  for (const entry of entries) zip.file(entry.name, entry.data, { date: ZIP_DATE });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
}

/** An Android app's APK: its manifest as text (a real APK's is binary XML) and a generated classes.dex. */
export function demoApk(packageName: string, versionName: string, versionCode: number): Promise<Buffer> {
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
    const bytes = await demoApk(APP_PACKAGES[release.appType]!, release.versionNumber, release.versionCode);
    apks.push({ appType: release.appType, versionCode: release.versionCode, file: await storeDemoFile(storage, bytes, 'apk', now) });
  }
  return { firmware, apks };
}
