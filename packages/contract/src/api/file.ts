/**
 * The upload calls /api/File/UploadImgs and /api/File/UploadVideos (SEED-SPEC section 7), UploadAudios, UploadPackages and UploadDocuments and the
 * addresses they give out, which image and file fields store (the schemas are in file-schemas.ts).
 */

/** Where uploaded files are served; an upload's URL is this prefix plus its storage key. */
export const UPLOAD_URL_PREFIX = '/uploads/';

/** Images UploadImgs accepts, by stored extension → served content type. SVG is absent on purpose: it can carry script. */
export const UPLOAD_IMAGE_TYPES = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' } as const;

/** Videos UploadVideos accepts, by stored extension → served content type. */
export const UPLOAD_VIDEO_TYPES = { mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime' } as const;

/** Audio UploadAudios accepts (music of albums and terminals), by stored extension → served content type. */
export const UPLOAD_AUDIO_TYPES = { mp3: 'audio/mpeg', m4a: 'audio/mp4', wav: 'audio/wav', ogg: 'audio/ogg', flac: 'audio/flac' } as const;

/**
 * App and firmware packages UploadPackages accepts, by stored extension → served content type: .zip
 * and .apk must be zip archives (checked by their bytes); .bin firmware may be any bytes.
 */
export const UPLOAD_PACKAGE_TYPES = { zip: 'application/zip', apk: 'application/vnd.android.package-archive', bin: 'application/octet-stream' } as const;
export type PackageExtension = keyof typeof UPLOAD_PACKAGE_TYPES;

/** Documents the platform makes itself (an album's print PDF). */
export const GENERATED_DOCUMENT_TYPES = { pdf: 'application/pdf' } as const;

/** Documents UploadDocuments accepts (courseware), by stored extension → served content type. */
export const UPLOAD_DOCUMENT_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
} as const;

/** Every stored extension with the content type it is served with. */
export const UPLOAD_CONTENT_TYPES = { ...UPLOAD_IMAGE_TYPES, ...UPLOAD_VIDEO_TYPES, ...UPLOAD_AUDIO_TYPES, ...UPLOAD_PACKAGE_TYPES, ...GENERATED_DOCUMENT_TYPES, ...UPLOAD_DOCUMENT_TYPES } as const;
export type UploadExtension = keyof typeof UPLOAD_CONTENT_TYPES;

/** Files one upload call takes at most. */
export const MAX_FILES_PER_UPLOAD = 10;

/** Longest image or file value a record stores. */
export const MAX_MEDIA_URL_LENGTH = 500;

/** Multipart field name the web sends files under (the server takes files under any name). */
export const UPLOAD_FIELD_NAME = 'files';

/**
 * A storage key: `<yyyy>/<mm>/<22 random base64url characters>.<ext>`. Nothing else is ever served,
 * which is what makes path traversal impossible.
 */
export const UPLOAD_KEY_PATTERN = new RegExp(`^\\d{4}/\\d{2}/[A-Za-z0-9_-]{22}\\.(?:${Object.keys(UPLOAD_CONTENT_TYPES).join('|')})$`);

/**
 * The query of a served upload address: its expiry (Unix seconds) and an HMAC of key and expiry.
 * Files are only reachable through addresses the server signed in an answer to a signed-in user.
 */
export const UPLOAD_SIGNATURE_PATTERN = /^e=\d{1,12}&s=[A-Za-z0-9_-]{43}$/;

/** Whether a value is an address the upload calls give out (`/uploads/<key>`, signed or not). */
export function isUploadUrl(value: string): boolean {
  if (!value.startsWith(UPLOAD_URL_PREFIX)) return false;
  const [path = '', query] = value.slice(UPLOAD_URL_PREFIX.length).split(/\?(.*)/s, 2);
  return UPLOAD_KEY_PATTERN.test(path) && (query === undefined || UPLOAD_SIGNATURE_PATTERN.test(query));
}

/** The last part of a media address's path, as lists name a stored file (no query, no fragment). */
export function mediaFileName(url: string): string {
  return url.split(/[?#]/)[0]?.split('/').filter(Boolean).pop() ?? url;
}

/** The storage key of an upload address (`/uploads/<key>`, signed or not). */
export function uploadKeyOf(value: string): string {
  return unsignedUploadUrl(value).slice(UPLOAD_URL_PREFIX.length);
}

/** An upload address without its signature: what a record stores (a signature expires). */
export function unsignedUploadUrl(value: string): string {
  return value.split('?', 1)[0]!;
}

/** Whether a value is a plain http(s) address: no other scheme (javascript:, data:), no spaces or control characters. */
export function isHttpUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (!/^https?:\/\/[^\s/?#]/i.test(value) || /[\s\u0000-\u001f\u007f]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Whether a value may be stored in an image or file field and shown as a link or picture. */
export function isMediaUrl(value: string): boolean {
  return value.length <= MAX_MEDIA_URL_LENGTH && (isUploadUrl(value) || isHttpUrl(value));
}
