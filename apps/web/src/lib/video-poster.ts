/**
 * A poster frame of a video the user chose, grabbed in the browser: no frame decoder runs on the
 * server (docs/decisions.md "A courseware video's poster"). The file plays muted in a detached video
 * element, seeks a little in (past a black first frame), and the frame is drawn on a canvas as JPEG.
 */

/** Longest side of the grabbed frame: a list thumbnail and a player's poster, not a still for print. */
const MAX_SIDE = 960;
/** How long a frame may take before giving up (a codec the browser cannot decode never answers). */
const TIMEOUT_MS = 15_000;

/** Where to take the frame: a second in, or a tenth of a short clip. */
export function posterTime(duration: number): number {
  return Number.isFinite(duration) && duration > 0 ? Math.min(1, duration / 10) : 0;
}

/** The frame's size on the canvas: the video's, scaled down to MAX_SIDE on its longer side. */
export function posterSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A JPEG of a frame of `file`; rejects when the browser cannot decode the video. */
export function grabPosterFrame(file: Blob): Promise<Blob> {
  return new Promise<Blob>((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const timer = window.setTimeout(() => finish(new Error('no frame decoded in time')), TIMEOUT_MS);
    const finish = (outcome: Blob | Error) => {
      window.clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      if (outcome instanceof Blob) resolve(outcome);
      else reject(outcome);
    };
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    video.onerror = () => finish(new Error('the video cannot be decoded'));
    video.onloadedmetadata = () => {
      if (!video.videoWidth || !video.videoHeight) return finish(new Error('the file has no picture'));
      video.currentTime = posterTime(video.duration);
    };
    video.onseeked = () => {
      const { width, height } = posterSize(video.videoWidth, video.videoHeight);
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      if (!context) return finish(new Error('no canvas'));
      context.drawImage(video, 0, 0, width, height);
      canvas.toBlob((blob) => finish(blob ?? new Error('the frame could not be encoded')), 'image/jpeg', 0.85);
    };
    video.src = url;
  });
}
