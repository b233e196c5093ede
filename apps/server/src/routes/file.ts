import multipart from '@fastify/multipart';
import {
  API_PATHS,
  MAX_FILES_PER_UPLOAD,
  UPLOAD_IMAGE_TYPES,
  UPLOAD_KEY_PATTERN,
  UPLOAD_URL_PREFIX,
  UPLOAD_VIDEO_TYPES,
  uploadAnswerSchema,
  type UploadAnswer,
  type UploadExtension,
} from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Env } from '../env.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
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
      `multipart/form-data with one to ${MAX_FILES_PER_UPLOAD} files (any field name; the web sends "files"). ` +
      `The kind is detected from the bytes, not the name or the declared type; each file may be up to ` +
      `${megabytesText(policy.maxBytes)}. A refused file is HTTP 400 naming it, and then nothing of the call is stored.`,
    consumes: ['multipart/form-data'],
    response: { 200: envelopeSchema(uploadAnswerSchema) },
  });

  const images = imagePolicy(app.env);
  const signed = async (answer: UploadAnswer) => {
    const signer = await app.mediaUrls();
    return answer.map((file) => ({ ...file, url: signer.sign(file.url) }));
  };
  app.post(API_PATHS.uploadImages, { schema: uploadSchema('Upload images: JPEG, PNG, GIF or WebP (never SVG)', images) }, async (request) =>
    ok(await signed(await receiveUploads(request, app.uploads, images, app.clock.now()))),
  );

  const videos = videoPolicy(app.env);
  app.post(API_PATHS.uploadVideos, { schema: uploadSchema('Upload videos: MP4, WebM or MOV (QuickTime)', videos) }, async (request) =>
    ok(await signed(await receiveUploads(request, app.uploads, videos, app.clock.now()))),
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
      if (range === 'unsatisfiable') return reply.status(416).header('Content-Range', `bytes */${stored.size}`).send();
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
