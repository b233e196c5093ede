import { buildMultipartBody } from '@campus/contract/terminal-signing';

/** A file of a multipart upload: its name, its bytes and the type the browser would send. */
export interface UploadPart {
  filename: string;
  content: Buffer;
  type?: string;
}

/** A multipart/form-data request (payload and content type) carrying `parts` under one field, as the web uploads them. */
export function multipartFiles(parts: readonly UploadPart[], field = 'files'): { payload: Buffer; headers: Record<string, string> } {
  const { body, contentType } = buildMultipartBody(
    {},
    parts.map((part) => ({ name: field, filename: part.filename, contentType: part.type ?? 'application/octet-stream', data: part.content })),
  );
  return { payload: body, headers: { 'content-type': contentType } };
}
