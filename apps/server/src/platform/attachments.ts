/** The file names of downloads: which page and which day, readable in every browser. */
import { formatBusinessDate, frameOf, type MessageLocale as Locale } from '@campus/contract';
import type { FastifyReply } from 'fastify';
import { XLSX_CONTENT_TYPE } from './envelope.js';

/** One of several exports of a page (a DataCenter trend): its name and title join the page's in the file name. */
export interface ExportPart {
  name: string;
  title: Readonly<Record<Locale, string>>;
}

/**
 * `学校管理-2026-11-25.xlsx`: the page's menu title in the caller's language and the date in
 * Asia/Shanghai; `数据中心-收入与退款-2026-11-25.xlsx` for a part of a page that exports several.
 */
export function exportFileName(frameIndex: string, locale: Locale, now: Date, extension = 'xlsx', part?: ExportPart): string {
  const frame = frameOf(frameIndex);
  return `${frame[locale]}-${part ? `${part.title[locale]}-` : ''}${formatBusinessDate(now)}.${extension}`;
}

/**
 * A Content-Disposition for an export of the page `frameIndex`. The UTF-8 title travels in the
 * RFC 5987 `filename*` parameter; `filename` carries an ASCII fallback (the route name, e.g.
 * `schoolManage-2026-11-25.xlsx`) for clients that read only the plain one.
 */
export function exportAttachmentHeader(frameIndex: string, locale: Locale, now: Date, extension = 'xlsx', part?: ExportPart): string {
  const asciiBase = part ? `${frameIndex}-${part.name}` : frameIndex;
  const asciiName = `${asciiBase.replace(/[^A-Za-z0-9_-]/g, '_')}-${formatBusinessDate(now)}.${extension}`;
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeRfc5987(exportFileName(frameIndex, locale, now, extension, part))}`;
}

/** encodeURIComponent leaves ' ( ) * unescaped; RFC 5987's attr-char does not allow them. */
function encodeRfc5987(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Sends a page's .xlsx download: its content type, and the page's file name for the caller's day (exportAttachmentHeader). */
export function sendWorkbook(reply: FastifyReply, workbook: unknown, frameIndex: string, locale: Locale, now: Date, part?: ExportPart): FastifyReply {
  return reply.header('Content-Type', XLSX_CONTENT_TYPE).header('Content-Disposition', exportAttachmentHeader(frameIndex, locale, now, 'xlsx', part)).send(workbook);
}
