import { describe, expect, it } from 'vitest';
import { captchaImageSrc } from './captcha-image';

describe('captchaImageSrc', () => {
  it('keeps a data URL', () => {
    expect(captchaImageSrc('data:image/svg+xml;base64,PHN2Zz4=')).toBe('data:image/svg+xml;base64,PHN2Zz4=');
  });
  it('encodes raw SVG markup', () => {
    expect(captchaImageSrc('<svg a="1"></svg>')).toBe('data:image/svg+xml;charset=utf-8,%3Csvg%20a%3D%221%22%3E%3C%2Fsvg%3E');
  });
  it('takes anything else as base64 SVG', () => {
    expect(captchaImageSrc('PHN2Zz4=')).toBe('data:image/svg+xml;base64,PHN2Zz4=');
  });
});
