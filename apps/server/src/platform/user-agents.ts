/** A browser's User-Agent header in words, for people reading their sessions (bowser parses it). */
import Bowser from 'bowser';

export interface UserAgentSummary {
  /** `Chrome 131`, `WeChat 8`; null when the header names no known browser (curl, a script). */
  browser: string | null;
  /** `Windows 10`, `macOS 10.15`, `iOS 17.5`, `Android 14`; null when unknown. */
  system: string | null;
  device: 'desktop' | 'mobile' | 'tablet' | 'tv' | null;
}

const DEVICE_TYPES = new Set(['desktop', 'mobile', 'tablet', 'tv']);

/** `131.0.2903.86` → `131`; `17.5` → `17.5` (minor versions tell mobile systems apart). */
const shortVersion = (version: string | undefined, parts: number) => (version ? version.split('.').slice(0, parts).join('.') : '');

const joined = (name: string | undefined, version: string) => (name ? `${name}${version ? ` ${version}` : ''}` : null);

/** Parses a User-Agent header; every part is null when the header is missing or unknown. */
export function describeUserAgent(userAgent: string | null | undefined): UserAgentSummary {
  if (!userAgent) return { browser: null, system: null, device: null };
  const { browser, os, platform } = Bowser.parse(userAgent);
  // Windows reports "NT 10.0"; bowser's versionName is the marketing name ("10", "7").
  const systemVersion = os.name === 'Windows' ? (os.versionName ?? '') : shortVersion(os.version, 2);
  return {
    browser: joined(browser.name, shortVersion(browser.version, 1)),
    system: joined(os.name, systemVersion),
    device: platform.type && DEVICE_TYPES.has(platform.type) ? (platform.type as UserAgentSummary['device']) : null,
  };
}
