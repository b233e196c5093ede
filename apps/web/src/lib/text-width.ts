/**
 * How wide a line of text is drawn, in px, for sizing columns and labels to their longest text before
 * anything is on screen (a fixed width cut English labels and tags: "Licence r", "Recognised/at").
 */
import { FONT_FAMILY } from './theme';

let context: CanvasRenderingContext2D | null | undefined;

function canvasContext(): CanvasRenderingContext2D | null {
  if (context !== undefined) return context;
  try {
    // jsdom has a canvas element without a 2D context (getContext answers null or throws).
    context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  } catch {
    context = null;
  }
  return context;
}

/** Full-width characters (CJK, fullwidth forms) take about 1 em; the rest, on average, about 0.6 em. */
function estimatedWidth(text: string, fontSize: number): number {
  let width = 0;
  for (const char of text) width += /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/u.test(char) ? fontSize : fontSize * 0.6;
  return width;
}

/** The width of `text` in the console's font at `fontSize` px (`weight` as CSS font-weight). */
export function textWidth(text: string, fontSize = 14, weight: number | 'normal' = 'normal'): number {
  const canvas = canvasContext();
  if (!canvas) return Math.ceil(estimatedWidth(text, fontSize));
  canvas.font = `${weight} ${fontSize}px ${FONT_FAMILY}`;
  return Math.ceil(canvas.measureText(text).width);
}
