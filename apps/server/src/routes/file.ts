import fs from 'node:fs/promises';
import multipart from '@fastify/multipart';
import {
  API_PATHS,
  MAX_FILES_PER_UPLOAD,
  UPLOAD_IMAGE_TYPES,
  UPLOAD_KEY_PATTERN,
  UPLOAD_URL_PREFIX,
  UPLOAD_PACKAGE_TYPES,
  UPLOAD_VIDEO_TYPES,
  UPLOAD_AUDIO_TYPES,
  UPLOAD_DOCUMENT_TYPES,
  packageUploadAnswerSchema,
  uploadAnswerSchema,
  type PackageExtension,
  type UploadAnswer,
  type UploadExtension,
} from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Env } from '../env.js';
import { binaryBody, envelopeSchema, errorResponses, ok } from '../platform/envelope.js';
import { notFound, msg } from '../platform/errors.js';
import { contentTypeOfKey, megabytesText, receiveUploads, type UploadPolicy } from '../platform/uploads.js';

const MEGABYTE = 1_048_576;

/** The contract's accepted kinds (extension → content type) as the detected type → the extension stored. */
const byContentType = (types: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(types).map(([ext, contentType]) => [contentType, ext as UploadExtension]));

const imagePolicy = (env: Env): UploadPolicy => ({
  noun: { zh: '图片', en: 'image' },
  types: byContentType(UPLOAD_IMAGE_TYPES),
  typeList: { zh: 'JPEG、PNG、GIF 或 WebP 图片', en: 'a JPEG, PNG, GIF or WebP image' },
  maxBytes: Math.floor(env.UPLOAD_IMAGE_MAX_MB * MEGABYTE),
});

const videoPolicy = (env: Env): UploadPolicy => ({
  noun: { zh: '视频', en: 'video' },
  // M4V is MP4 with Apple's brand; browsers play it as MP4.
  types: { ...byContentType(UPLOAD_VIDEO_TYPES), 'video/x-m4v': 'mp4' },
  typeList: { zh: 'MP4、WebM 或 MOV 视频', en: 'an MP4, WebM or MOV (QuickTime) video' },
  maxBytes: Math.floor(env.UPLOAD_VIDEO_MAX_MB * MEGABYTE),
});

/** Largest audio file UploadAudios stores: a song of ten minutes at 320 kbit/s is 24 MB. */
const AUDIO_MAX_BYTES = 30 * MEGABYTE;

const audioPolicy = (): UploadPolicy => ({
  noun: { zh: '音频', en: 'audio file' },
  // file-type names some kinds by older or vendor types: each is mapped to the extension served.
  types: { ...byContentType(UPLOAD_AUDIO_TYPES), 'audio/x-m4a': 'm4a', 'audio/vnd.wave': 'wav', 'audio/x-wav': 'wav', 'audio/x-flac': 'flac' },
  typeList: { zh: 'MP3、M4A、WAV、OGG 或 FLAC 音频', en: 'an MP3, M4A, WAV, OGG or FLAC audio file' },
  maxBytes: AUDIO_MAX_BYTES,
});

/** Largest document UploadDocuments stores: a courseware deck with its pictures. */
const DOCUMENT_MAX_BYTES = 50 * MEGABYTE;

const documentPolicy = (): UploadPolicy => ({
  noun: { zh: '文档', en: 'document' },
  types: byContentType(UPLOAD_DOCUMENT_TYPES),
  typeList: { zh: 'PDF、Word(DOCX)或 PowerPoint(PPTX)文档', en: 'a PDF, Word (DOCX) or PowerPoint (PPTX) document' },
  maxBytes: DOCUMENT_MAX_BYTES,
});

/** Local file headers (PK\x03\x04) start every zip, jar and APK; an empty archive is only its end record (PK\x05\x06). */
const ZIP_SIGNATURES = [Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from([0x50, 0x4b, 0x05, 0x06])];

/** The first bytes of a staged file. */
async function headOf(stagedPath: string, length: number): Promise<Buffer> {
  const handle = await fs.open(stagedPath, 'r');
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await handle.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * A package's kind by its name, confirmed by its bytes: .zip and .apk must be zip archives; a
 * firmware .bin is whatever the vendor's format is, so any bytes are taken.
 */
export async function packageKindOf(name: string, stagedPath: string): Promise<PackageExtension | undefined> {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (ext === 'bin') return 'bin';
  if (ext !== 'zip' && ext !== 'apk') return undefined;
  const head = await headOf(stagedPath, 4);
  return ZIP_SIGNATURES.some((signature) => signature.equals(head)) ? ext : undefined;
}

const packagePolicy = (env: Env): UploadPolicy => ({
  noun: { zh: '安装包', en: 'package' },
  types: Object.fromEntries(Object.entries(UPLOAD_PACKAGE_TYPES).map(([ext, contentType]) => [contentType, ext as UploadExtension])),
  typeList: { zh: 'ZIP、APK 安装包或 BIN 固件', en: 'a ZIP or APK package or a BIN firmware image' },
  maxBytes: Math.floor(env.UPLOAD_PACKAGE_MAX_MB * MEGABYTE),
  // One package per call: a version names exactly one, and each may be hundreds of megabytes.
  maxFiles: 1,
  kindOf: packageKindOf,
});

/** Cached by the browser while its address stays valid; a stored file never changes (names are never reused). */
const cacheControlFor = (secondsLeft: number) => `private, max-age=${secondsLeft}, immutable`;

type ByteRange = { start: number; end: number };

/**
 * One `bytes=` range of a Range header (browsers need them to seek in a video); several ranges or a
 * malformed header are ignored and the whole file is sent, as RFC 9110 allows.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * The upload calls (any signed-in user; the auth hook guards every /api route) and the /uploads/
 * addresses they give out, which open their file only while their signature is valid (media-urls.ts).
 */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here so only these routes parse multipart bodies. Oversized files arrive truncated
  // instead of throwing, so receiveUploads can refuse them by name.
  await app.register(multipart, { throwFileSizeLimit: false });

  const uploadSchema = (summary: string, policy: UploadPolicy) => ({
    tags: ['File'],
    summary,
    description:
      `multipart/form-data with one to ${policy.maxFiles ?? MAX_FILES_PER_UPLOAD} file(s) (any field name; the web sends "files"). ` +
      `The kind is detected from the bytes, not the name or the declared type; each file may be up to ` +
      `${megabytesText(policy.maxBytes)}. A refused file is HTTP 400 naming it, and then nothing of the call is stored.`,
    consumes: ['multipart/form-data'],
    response: { 200: envelopeSchema(uploadAnswerSchema) },
  });

  const images = imagePolicy(app.env);
  // Images and videos answer what they always did; the key and hash are for packages.
  const signed = async (answer: UploadAnswer) => {
    const signer = await app.mediaUrls();
    return answer.map(({ name, size, contentType, url }) => ({ url: signer.sign(url), name, size, contentType }));
  };
  app.post(API_PATHS.uploadImages, { schema: uploadSchema('Upload images: JPEG, PNG, GIF or WebP (never SVG)', images) }, async (request) =>
    ok(await signed(await receiveUploads(request, app.uploads, images, app.clock.now()))),
  );

  const videos = videoPolicy(app.env);
  app.post(API_PATHS.uploadVideos, { schema: uploadSchema('Upload videos: MP4, WebM or MOV (QuickTime)', videos) }, async (request) =>
    ok(await signed(await receiveUploads(request, app.uploads, videos, app.clock.now()))),
  );

  const audios = audioPolicy();
  app.post(API_PATHS.uploadAudios, { schema: uploadSchema('Upload audio: MP3, M4A, WAV, OGG or FLAC (music of albums and terminals)', audios) }, async (request) =>
    ok(await signed(await receiveUploads(request, app.uploads, audios, app.clock.now()))),
  );

  const documents = documentPolicy();
  app.post(API_PATHS.uploadDocuments, { schema: uploadSchema('Upload documents: PDF, Word (DOCX) or PowerPoint (PPTX) (courseware)', documents) }, async (request) =>
    ok(await signed(await receiveUploads(request, app.uploads, documents, app.clock.now()))),
  );

  const packages = packagePolicy(app.env);
  app.post(
    API_PATHS.uploadPackages,
    {
      schema: {
        ...uploadSchema('Upload one app or firmware package: .zip or .apk (a zip archive) or .bin firmware; answers its key, size and SHA-256', packages),
        response: { 200: envelopeSchema(packageUploadAnswerSchema) },
      },
    },
    async (request) => {
      const stored = await receiveUploads(request, app.uploads, packages, app.clock.now());
      const signer = await app.mediaUrls();
      return ok(stored.map((file) => ({ ...file, url: signer.sign(file.url) })));
    },
  );

  app.get(
    `${UPLOAD_URL_PREFIX}*`,
    {
      config: { public: true },
      schema: {
        tags: ['File'],
        summary: 'An uploaded file by a signed address an answer gave out, with the content type of its detected kind (byte ranges supported)',
        params: z.object({ '*': z.string() }),
        querystring: z.object({ e: z.string().optional(), s: z.string().optional() }),
        // Streams and empty answers only: Fastify serializes none of them, so these only document the bytes.
        response: {
          200: { description: 'The whole file', content: { '*/*': { schema: binaryBody } } },
          206: { description: 'The byte range the Range header asked for', content: { '*/*': { schema: binaryBody } } },
          404: errorResponses[404].describe('No such file, or the address is unsigned, forged or expired'),
          416: z.undefined().describe('The Range header asks for bytes beyond the file: no body, Content-Range says its size'),
        },
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      // Only keys of the form the store writes are looked up, so no path can climb out of the folder.
      // An unsigned, forged or expired address is answered like a missing file: nothing to probe.
      const secondsLeft = UPLOAD_KEY_PATTERN.test(key) ? (await app.mediaUrls()).secondsLeft(key, request.query) : null;
      const stored = secondsLeft === null ? undefined : await app.uploads.stat(key);
      if (!stored || secondsLeft === null) throw notFound(msg('error.addressNotFound'));

      const range = parseRange(request.headers.range, stored.size);
      reply.header('Accept-Ranges', 'bytes').header('Cache-Control', cacheControlFor(secondsLeft)).header('X-Content-Type-Options', 'nosniff');
      if (range === 'unsatisfiable') return reply.status(416).header('Content-Range', `bytes */${stored.size}`).send(undefined);
      reply.header('Content-Type', contentTypeOfKey(key));
      if (!range) return reply.header('Content-Length', stored.size).send(app.uploads.read(key));
      return reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${stored.size}`)
        .header('Content-Length', range.end - range.start + 1)
        .send(app.uploads.read(key, range));
    },
  );
};
