import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TestApp } from '../test/antd.js';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../lib/i18n';
import { saveSession } from '../lib/session';
import { bindToastApi } from '../lib/toast';
import { UploadField, type UploadFieldKind } from './upload-field';

const WAIT = { timeout: 5000 };
const STORED = '/uploads/2026/05/AbCdEfGhIjKlMnOpQrStUv.png';

/** Stands in for the browser's XMLHttpRequest: records what is sent and answers when the test says. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  timeout = 0;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

/** The control inside a tiny form: the value it holds is printed so tests can read it. */
function Harness({ kind, initial = '' }: { kind: UploadFieldKind; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <TestApp>
      <UploadField kind={kind} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </TestApp>
  );
}

const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const valueShown = () => screen.getByTestId('value').textContent;

function pick(name: string, type: string) {
  const file = new File(['\x89PNG fake bytes'], name, { type });
  fireEvent.change(fileInput(), { target: { files: [file] } });
  return file;
}

async function sentRequest(): Promise<FakeXhr> {
  await waitFor(() => expect(FakeXhr.last).not.toBeNull(), WAIT);
  return FakeXhr.last!;
}

describe('<UploadField>', { timeout: 15_000 }, () => {
  beforeEach(() => {
    setLocale('en');
    FakeXhr.last = null;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    bindToastApi({ error: () => undefined, warning: () => undefined, success: () => undefined, info: () => undefined });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    saveSession({ token: 'tok-upload', schoolName: 'HQ', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '2030-01-01T00:00:00Z', frameIds: [] });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    setLocale('zh-CN');
  });

  it('uploads a picked image with the session token, shows progress, and holds the answered URL', async () => {
    render(<Harness kind="image" />);
    expect(fileInput().accept).toBe('image/jpeg,image/png,image/gif,image/webp');
    const file = pick('face.png', 'image/png');

    const xhr = await sentRequest();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/File/UploadImgs');
    expect(xhr.headers.Authorization).toBe('Bearer tok-upload');
    expect(xhr.body?.getAll('files')).toEqual([file]);

    xhr.progress(40, 100);
    await waitFor(() => expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40'), WAIT);

    xhr.respond(200, { code: 200, message: 'ok', data: [{ url: STORED, name: 'face.png', size: 15, contentType: 'image/png' }] });
    await waitFor(() => expect(valueShown()).toBe(STORED), WAIT);
    await waitFor(() => expect(document.querySelector(`img[src="${STORED}"]`)).not.toBeNull(), WAIT);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it("shows the server's refusal and keeps the value unchanged", async () => {
    render(<Harness kind="image" />);
    pick('notes.png', 'image/png');
    const xhr = await sentRequest();
    xhr.respond(400, { code: 400, message: '"notes.png" is not a JPEG, PNG, GIF or WebP image', data: { errors: [] } });
    expect(await screen.findByRole('alert', undefined, WAIT)).toHaveProperty(
      'textContent',
      'Upload failed: request error: "notes.png" is not a JPEG, PNG, GIF or WebP image',
    );
    expect(valueShown()).toBe('');
  });

  it('clears the value when the stored image is removed', async () => {
    render(<Harness kind="image" initial={STORED} />);
    expect(document.querySelector(`img[src="${STORED}"]`)).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Remove file|delete/i }));
    await waitFor(() => expect(valueShown()).toBe(''), WAIT);
  });

  it('uploads file fields as videos and lists the stored file as a link', async () => {
    render(<Harness kind="file" />);
    expect(fileInput().accept).toBe('video/mp4,video/webm,video/quicktime');
    pick('lesson.mp4', 'video/mp4');
    const xhr = await sentRequest();
    expect(xhr.url).toBe('/api/File/UploadVideos');
    const url = '/uploads/2026/05/AbCdEfGhIjKlMnOpQrStUv.mp4';
    xhr.respond(200, { code: 200, message: 'ok', data: [{ url, name: 'lesson.mp4', size: 15, contentType: 'video/mp4' }] });
    // Just uploaded: the name it had on the user's disk, not the random storage key.
    const link = await screen.findByRole('link', { name: 'lesson.mp4' }, WAIT);
    expect(link.getAttribute('href')).toBe(url);
    expect(valueShown()).toBe(url);
  });

  it('never turns a stored value that is not an upload or http(s) address into a link', () => {
    render(<Harness kind="file" initial="javascript:alert(1)" />);
    expect(document.querySelector('a[href^="javascript"]')).toBeNull();
  });
});
