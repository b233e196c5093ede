/** The form control of image and file fields: uploads one file and holds its URL as the field value. */
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { API_PATHS, UPLOAD_AUDIO_TYPES, UPLOAD_DOCUMENT_TYPES, UPLOAD_IMAGE_TYPES, UPLOAD_PACKAGE_TYPES, UPLOAD_VIDEO_TYPES, isMediaUrl, mediaFileName, type UploadAnswer } from '@campus/contract';
import { Button, Image, Typography, Upload, type UploadFile, type UploadProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useT } from '../lib/i18n';
import { uploadFiles } from '../lib/upload';
import { storedFileLabel } from '../lib/stored-file-label';

export type UploadFieldKind = 'image' | 'file' | 'audio' | 'package' | 'document';

export interface UploadFieldProps {
  /** 'image' uploads pictures (picture card with preview); 'file' uploads videos; 'package' app or firmware packages. */
  kind: UploadFieldKind;
  /** The stored URL; '' or nothing when empty. */
  value?: string | null;
  /** Called with the uploaded file's URL, or '' when the file is removed. */
  onChange?: (value: string) => void;
  id?: string;
  disabled?: boolean;
  /** Called once a file is stored, with the file as picked (a video's poster frame is grabbed from it). */
  onUploaded?: (file: File, url: string) => void;
}

const CALLS = {
  image: { path: API_PATHS.uploadImages, accept: Object.values(UPLOAD_IMAGE_TYPES).join(',') },
  file: { path: API_PATHS.uploadVideos, accept: Object.values(UPLOAD_VIDEO_TYPES).join(',') },
  audio: { path: API_PATHS.uploadAudios, accept: Object.values(UPLOAD_AUDIO_TYPES).join(',') },
  document: { path: API_PATHS.uploadDocuments, accept: Object.keys(UPLOAD_DOCUMENT_TYPES).map((ext) => `.${ext}`).join(',') },
  // Packages are checked by name and bytes; browsers know no content type for a firmware .bin.
  package: { path: API_PATHS.uploadPackages, accept: Object.keys(UPLOAD_PACKAGE_TYPES).map((ext) => `.${ext}`).join(',') },
} as const;

const HINTS = { image: 'upload.imageHint', file: 'upload.videoHint', audio: 'upload.audioHint', package: 'upload.packageHint', document: 'upload.documentHint' } as const;

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * antd Upload for one file, sent through the request client (the session's token, the error
 * catalogue) with its progress shown. The value stays the stored URL until an upload succeeds, so a
 * failed replacement keeps the old file.
 */
export function UploadField({ kind, value, onChange, id, disabled, onUploaded }: UploadFieldProps) {
  const t = useT();
  const [pending, setPending] = useState<UploadFile | null>(null);
  const [isPreviewOpen, setPreviewOpen] = useState(false);
  // The name the file had on the user's disk, while the field still holds the address it was stored at.
  const [justUploaded, setJustUploaded] = useState<{ url: string; name: string } | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const call = CALLS[kind];

  // A form closed mid-upload must not call back into it.
  useEffect(() => () => inFlight.current?.abort(), []);

  const stored = value && isMediaUrl(value) ? value : null;
  const storedName = (url: string) => {
    if (justUploaded?.url === url) return justUploaded.name;
    return kind === 'image' ? mediaFileName(url) : storedFileLabel(url, kind === 'file' ? undefined : kind);
  };
  const fileList: UploadFile[] = pending
    ? [pending]
    : value
      ? [{ uid: `stored:${value}`, name: storedName(value), status: 'done', url: stored ?? undefined, thumbUrl: kind === 'image' ? (stored ?? undefined) : undefined }]
      : [];

  const customRequest: UploadProps['customRequest'] = ({ file }) => {
    const picked = file as File & { uid?: string };
    const uid = picked.uid ?? `pending:${picked.name}`;
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setPending({ uid, name: picked.name, status: 'uploading', percent: 0 });
    const onProgress = (percent: number) => setPending((current) => (current?.uid === uid ? { ...current, percent } : current));
    uploadFiles<UploadAnswer>(call.path, [picked], { signal: controller.signal, onProgress })
      .then(([uploaded]) => {
        if (!uploaded) throw new Error('the server stored no file');
        setPending(null);
        setJustUploaded({ url: uploaded.url, name: uploaded.name });
        onChange?.(uploaded.url);
        onUploaded?.(picked, uploaded.url);
      })
      .catch((error: unknown) => {
        if (isAbort(error)) return;
        const message = error instanceof Error ? error.message : String(error);
        setPending({ uid, name: picked.name, status: 'error', response: message, error });
      })
      .finally(() => {
        if (inFlight.current === controller) inFlight.current = null;
      });
  };

  const onRemove = (file: UploadFile) => {
    if (pending && file.uid === pending.uid) {
      // Dropping a failed or running upload brings the stored file back into view.
      inFlight.current?.abort();
      setPending(null);
      return true;
    }
    onChange?.('');
    return true;
  };

  const errorText = pending?.status === 'error' ? t('upload.failed', { message: String(pending.response ?? '') }) : null;
  const isImage = kind === 'image';
  const hint = t(HINTS[kind]);

  return (
    <div>
      <Upload
        id={id}
        accept={call.accept}
        listType={isImage ? 'picture-card' : 'text'}
        fileList={fileList}
        maxCount={1}
        disabled={disabled}
        customRequest={customRequest}
        onRemove={onRemove}
        onPreview={isImage ? () => stored && setPreviewOpen(true) : undefined}
        showUploadList={{ showPreviewIcon: isImage && stored !== null && !pending }}
      >
        {isImage ? (
          fileList.length === 0 && (
            <button type="button" style={{ border: 0, background: 'none', cursor: 'inherit' }}>
              <PlusOutlined />
              <div style={{ marginTop: 8 }}>{t('upload.image')}</div>
            </button>
          )
        ) : (
          <Button icon={<UploadOutlined />} disabled={disabled}>
            {t('upload.file')}
          </Button>
        )}
      </Upload>
      {errorText ? (
        <Typography.Text type="danger" role="alert">
          {errorText}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{hint}</Typography.Text>
      )}
      {isImage && stored && (
        <Image style={{ display: 'none' }} src={stored} alt="" preview={{ open: isPreviewOpen, onOpenChange: setPreviewOpen, src: stored }} />
      )}
    </div>
  );
}
