/**
 * Inputs most lists never show, each downloaded when one first shows (a date or number filter, the
 * terminal settings' numbers): antd's DatePicker and RangePicker (with their panels about 25 kB of
 * gzipped JS) and InputNumber (about 7 kB). Until one arrives an empty input of the same size holds
 * its place.
 */
import { Input } from 'antd';
import { Suspense, lazy, type ComponentProps, type ComponentType, type CSSProperties } from 'react';

/** A component rendered from a lazily loaded module, with a disabled input in its place meanwhile. */
function deferredInput<P extends { style?: CSSProperties }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Part = lazy(() => load().then((component) => ({ default: component })));
  function DeferredInput(props: P) {
    // The stand-in carries the id and name of the input it stands for, so that its form item's label
    // names it meanwhile (a range picker's id may be a pair: the stand-in then goes by its aria-label).
    const { id, 'aria-label': ariaLabel } = props as { id?: unknown; 'aria-label'?: unknown };
    return (
      <Suspense fallback={<Input disabled style={props.style} id={typeof id === 'string' ? id : undefined} aria-label={typeof ariaLabel === 'string' ? ariaLabel : undefined} />}>
        {/* React's lazy() widens the props type; they are P exactly. */}
        <Part {...(props as ComponentProps<typeof Part>)} />
      </Suspense>
    );
  }
  return DeferredInput;
}

const loadPickers = () => import('./date-pickers-part');

export const DatePicker = deferredInput(() => loadPickers().then((module) => module.DatePickerPart));
export const RangePicker = deferredInput(() => loadPickers().then((module) => module.RangePickerPart));
export const InputNumber = deferredInput(() => import('./input-number-part').then((module) => module.InputNumberPart));
