import { mediaFileName } from '@campus/contract';
import { translate, type Locale } from './i18n';

export type StoredFileKind = 'video' | 'audio' | 'package' | 'document';

/**
 * How a stored upload is named on screen. Its storage key is random (`2026/11/3f9c….mp3`) and says
 * nothing to a reader, so the kind of file and its extension are shown instead ("音频文件 · MP3").
 */
export function storedFileLabel(url: string, files: StoredFileKind | undefined, locale?: Locale): string {
  const extension = /\.([a-z0-9]{1,8})$/i.exec(mediaFileName(url))?.[1]?.toUpperCase();
  const kind = translate(`file.kind.${files ?? 'video'}`, undefined, locale);
  return extension ? `${kind} · ${extension}` : kind;
}
