/**
 * File uploads, apart from the request client: only pages with an upload field need them (and the
 * contract's upload module behind the field name), not the entry or /login.
 */
import { UPLOAD_FIELD_NAME } from '@campus/contract';
import { getLocale } from './i18n';
import { answerOfXhr, failWithoutAnswer, type RequestOptions } from './request';
import { getToken } from './session';

export interface UploadOptions {
  /** Called as the bytes go out, with the share sent so far (0–100). */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  silent?: boolean;
  /** No limit unless given: a large video on a slow line may take long. */
  timeoutMs?: number;
}

/**
 * POSTs files as multipart/form-data (field UPLOAD_FIELD_NAME) with the session's token and answers
 * the envelope's data; failures go through the same catalogue as `request`. XMLHttpRequest, because
 * fetch cannot report upload progress. A caller's abort rejects with an AbortError and no toast.
 * @example const [file] = await uploadFiles<UploadAnswer>(API_PATHS.uploadImages, [picked]);
 */
export function uploadFiles<T>(path: string, files: readonly File[], options: UploadOptions = {}): Promise<T> {
  const failureOptions: RequestOptions = { silent: options.silent };
  return new Promise<T>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DOMException('upload cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const settle = (answer: () => T) => {
      try {
        resolve(answer());
      } catch (error) {
        reject(error);
      }
    };
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', getLocale());
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (options.timeoutMs) xhr.timeout = options.timeoutMs;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => settle(() => answerOfXhr<T>(xhr, path, failureOptions));
    xhr.onerror = () => settle(() => failWithoutAnswer(0, path, failureOptions));
    xhr.ontimeout = () => settle(() => failWithoutAnswer(408, path, failureOptions));
    xhr.onabort = () => reject(new DOMException('upload cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    for (const file of files) form.append(UPLOAD_FIELD_NAME, file);
    xhr.send(form);
  });
}

