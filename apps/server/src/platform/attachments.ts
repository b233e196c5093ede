/** The file names of downloads: which page and which day, readable in every browser. */
import { formatBusinessDate, frameOf, type MessageLocale as Locale } from '@campus/contract';

/** `学校管理-2026-11-25.xlsx`: the page's menu title in the caller's language and the date in Asia/Shanghai. */
export function exportFileName(frameIndex: string, locale: Locale, now: Date, extension = 'xlsx'): string {
  const frame = frameOf(frameIndex);
  return `${frame[locale]}-${formatBusinessDate(now)}.${extension}`;
}

/**
 * A Content-Disposition for an export of the page `frameIndex`. The UTF-8 title travels in the
 * RFC 5987 `filename*` parameter; `filename` carries an ASCII fallback (the route name, e.g.
 * `schoolManage-2026-11-25.xlsx`) for clients that read only the plain one.
 */
export function exportAttachmentHeader(frameIndex: string, locale: Locale, now: Date, extension = 'xlsx'): string {
  const asciiName = `${frameIndex.replace(/[^A-Za-z0-9_-]/g, '_')}-${formatBusinessDate(now)}.${extension}`;
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeRfc5987(exportFileName(frameIndex, locale, now, extension))}`;
}

/** encodeURIComponent leaves ' ( ) * unescaped; RFC 5987's attr-char does not allow them. */
function encodeRfc5987(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
