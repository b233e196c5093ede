/**
 * A table header cell whose right edge changes the column's width: dragged with the mouse, or focused
 * (Tab) and moved with the arrow keys, as a vertical separator (WAI-ARIA window splitter pattern).
 */
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from '@campus/contract';
import { useRef, type KeyboardEvent, type PointerEvent, type ThHTMLAttributes } from 'react';
import { clampColumnWidth } from './arrange-columns';

/** Pixels an arrow key moves the edge; with Shift, a bigger step. */
export const RESIZE_KEY_STEP = 10;
export const RESIZE_KEY_BIG_STEP = 50;

/** The width a key asks for, or null when the key does not resize. */
export function widthForKey(key: string, width: number, isBigStep: boolean): number | null {
  const step = isBigStep ? RESIZE_KEY_BIG_STEP : RESIZE_KEY_STEP;
  switch (key) {
    case 'ArrowLeft':
      return clampColumnWidth(width - step);
    case 'ArrowRight':
      return clampColumnWidth(width + step);
    case 'Home':
      return MIN_COLUMN_WIDTH;
    case 'End':
      return MAX_COLUMN_WIDTH;
    default:
      return null;
  }
}

export interface ResizableHeaderProps extends ThHTMLAttributes<HTMLTableCellElement> {
  /** The column's width now; without it (selection, operations) the cell does not resize. */
  resizeWidth?: number;
  /** Called while dragging (a frame at most) and once more when the drag ends, and on each resizing key. */
  onResizeWidth?: (width: number) => void;
  /** The handle's hint for the mouse. */
  resizeLabel?: string;
  /** The handle's accessible name: which column it resizes, and how. */
  resizeName?: string;
}

export function ResizableHeaderCell({ resizeWidth, onResizeWidth, resizeLabel, resizeName, children, ...cell }: ResizableHeaderProps) {
  const frame = useRef<number | null>(null);
  if (resizeWidth === undefined || !onResizeWidth) return <th {...cell}>{children}</th>;

  const startDrag = (event: PointerEvent<HTMLSpanElement>) => {
    // The header sorts on click: a drag on the edge must not.
    event.preventDefault();
    event.stopPropagation();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const startX = event.clientX;
    const widthAt = (clientX: number) => clampColumnWidth(resizeWidth + clientX - startX);
    const move = (moveEvent: globalThis.PointerEvent) => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => onResizeWidth(widthAt(moveEvent.clientX)));
    };
    const end = (endEvent: globalThis.PointerEvent) => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
      onResizeWidth(widthAt(endEvent.clientX));
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  };

  const resizeByKey = (event: KeyboardEvent<HTMLSpanElement>) => {
    const width = widthForKey(event.key, resizeWidth, event.shiftKey);
    // Enter and Space on the header sort it: a key meant for the edge must not reach the header.
    event.stopPropagation();
    if (width === null) return;
    event.preventDefault();
    if (width !== resizeWidth) onResizeWidth(width);
  };

  return (
    <th {...cell}>
      {children}
      <span
        className="column-resize-handle"
        role="separator"
        aria-orientation="vertical"
        aria-label={resizeName ?? resizeLabel}
        aria-valuenow={resizeWidth}
        aria-valuemin={MIN_COLUMN_WIDTH}
        aria-valuemax={MAX_COLUMN_WIDTH}
        tabIndex={0}
        title={resizeLabel}
        onPointerDown={startDrag}
        onKeyDown={resizeByKey}
        onClick={(event) => event.stopPropagation()}
      />
    </th>
  );
}
