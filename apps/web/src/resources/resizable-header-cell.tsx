/** A table header cell whose right edge can be dragged to change the column's width. */
import { useRef, type PointerEvent, type ThHTMLAttributes } from 'react';
import { clampColumnWidth } from './arrange-columns';

export interface ResizableHeaderProps extends ThHTMLAttributes<HTMLTableCellElement> {
  /** The column's width now; without it (selection, operations) the cell does not resize. */
  resizeWidth?: number;
  /** Called while dragging (a frame at most) and once more when the drag ends. */
  onResizeWidth?: (width: number) => void;
  resizeLabel?: string;
}

export function ResizableHeaderCell({ resizeWidth, onResizeWidth, resizeLabel, children, ...cell }: ResizableHeaderProps) {
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

  return (
    <th {...cell}>
      {children}
      {/* A mouse affordance only: hidden from screen readers, so the header's name stays its title. */}
      <span
        className="column-resize-handle"
        aria-hidden="true"
        title={resizeLabel}
        onPointerDown={startDrag}
        onClick={(event) => event.stopPropagation()}
      />
    </th>
  );
}
