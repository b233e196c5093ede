import { describe, expect, it } from 'vitest';
import { Student, fieldValueSchema } from '../resources/index.js';
import { MAX_MEDIA_URL_LENGTH, isMediaUrl } from './file.js';
import { mediaUrlSchema } from './file-schemas.js';

const uploaded = '/uploads/2026/05/AbCdEfGhIjKlMnOpQrStUv.png';

describe('mediaUrlSchema (image and file field values)', () => {
  it('accepts the addresses the upload calls give out and http(s) URLs', () => {
    for (const value of [uploaded, '/uploads/2026/05/AbCdEfGhIjKlMnOpQr_-12.mp4', 'https://cdn.example.com/a/b.jpg?x=1', 'http://10.0.0.5:8080/face.png']) {
      expect(mediaUrlSchema.safeParse(value).success, value).toBe(true);
    }
  });

  it('refuses other schemes, relative paths, traversal and spaces', () => {
    for (const value of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://example.com/a.png',
      '//evil.example.com/a.png',
      '/uploads/../secret.txt',
      '/uploads/2026/05/short.png',
      '/uploads/2026/05/AbCdEfGhIjKlMnOpQrStUv.svg',
      '/api/File/UploadImgs',
      'https://exa mple.com/a.png',
      'https://example.com/a.png\njavascript:alert(1)',
      'https://',
    ]) {
      expect(mediaUrlSchema.safeParse(value).success, value).toBe(false);
    }
  });

  it('caps the length', () => {
    const long = `https://example.com/${'a'.repeat(MAX_MEDIA_URL_LENGTH)}`;
    expect(isMediaUrl(long)).toBe(false);
    expect(mediaUrlSchema.safeParse(long).success).toBe(false);
  });

  it('is the schema of image fields in Add and Update bodies', () => {
    const schema = fieldValueSchema(Student.fields.faceImage!);
    expect(schema.safeParse(uploaded).success).toBe(true);
    expect(schema.safeParse('javascript:alert(1)').success).toBe(false);
  });

  it('takes a signed address as the file it names, and refuses a malformed signature', () => {
    const signed = `${uploaded}?e=1795400000&s=${'A'.repeat(43)}`;
    expect(mediaUrlSchema.parse(signed)).toBe(uploaded);
    for (const value of [`${uploaded}?e=1&s=short`, `${uploaded}?s=${'A'.repeat(43)}`, `${uploaded}?e=1&s=${'A'.repeat(43)}&x=1`, `${uploaded}?`]) {
      expect(mediaUrlSchema.safeParse(value).success, value).toBe(false);
    }
  });
});
