import { useEffect, useState } from 'react';

/** The size the wall display is designed at. */
export const STAGE_WIDTH = 1920;
export const STAGE_HEIGHT = 1080;
/** Below this scale text is too small to read: the stage keeps it and the page scrolls instead. */
export const MIN_STAGE_SCALE = 0.5;

/**
 * The scale that fits the whole 1920×1080 stage in a `width`×`height` window, keeping its proportions
 * (letterboxed, never cropped: a screen that is not 16:9 gets bands, not a cut-off edge), but never
 * below MIN_STAGE_SCALE (a narrow window scrolls).
 */
export function fittedScale(width: number, height: number): number {
  return Math.max(MIN_STAGE_SCALE, Math.min(width / STAGE_WIDTH, height / STAGE_HEIGHT));
}

/** The stage's scale for the window, following its resizes. */
export function useFittedStage(): number {
  const [scale, setScale] = useState(() => fittedScale(window.innerWidth, window.innerHeight));
  useEffect(() => {
    const update = () => setScale(fittedScale(window.innerWidth, window.innerHeight));
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return scale;
}
