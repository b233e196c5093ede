/** Schemas of the upload calls' answers and of the image and file fields' values (see file.ts). */
import { messageText } from '../messages.js';
import { z } from 'zod';
import { MAX_MEDIA_URL_LENGTH, isMediaUrl, isUploadUrl, unsignedUploadUrl } from './file.js';

/** An image or file field's value: an uploaded file's address or an http(s) URL. */
export const mediaUrlSchema = z
  .string()
  .trim()
  .max(MAX_MEDIA_URL_LENGTH)
  .refine(isMediaUrl, messageText('validation.mediaUrl'))
  .transform((value) => (isUploadUrl(value) ? unsignedUploadUrl(value) : value));

export const uploadedFileSchema = z.object({
  url: z.string().describe('Signed address /uploads/<yyyy>/<mm>/<random>.<ext>?e=…&s=…: the value to put in an image or file field (stored without the signature)'),
  name: z.string().describe('The file name the client sent'),
  size: z.number().int().describe('Bytes stored'),
  contentType: z.string().describe('Detected from the bytes, not from the name'),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** Data of both upload calls: the stored files, in the order they were sent. */
export const uploadAnswerSchema = z.array(uploadedFileSchema);
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

export const uploadedPackageSchema = uploadedFileSchema.extend({
  key: z.string().describe('The storage key <yyyy>/<mm>/<random>.<ext>'),
  sha256: z.string().describe('SHA-256 of the stored bytes, lower-case hex: what a terminal checks its download against'),
});
export type UploadedPackage = z.infer<typeof uploadedPackageSchema>;

/** Data of UploadPackages: the one stored package, in a list like the other upload calls. */
export const packageUploadAnswerSchema = z.array(uploadedPackageSchema);
