/**
 * The captcha call answers an SVG either as a data URL or as raw markup; both become an <img> src.
 * Anything else is taken as base64 SVG.
 */
export function captchaImageSrc(image: string): string {
  const trimmed = image.trim();
  if (trimmed.startsWith('data:')) return trimmed;
  if (trimmed.startsWith('<')) return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(trimmed)}`;
  return `data:image/svg+xml;base64,${trimmed}`;
}
