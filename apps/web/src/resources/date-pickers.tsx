/**
 * antd's DatePicker and RangePicker for the filter bar, downloaded when a date filter first shows:
 * most lists filter by no date, and the picker with its panels is about 25 kB of gzipped JS. Until it
 * arrives an empty input of the same size holds its place.
 */
import { Input } from 'antd';
import { Suspense, lazy } from 'react';
import type { DatePickerProps, RangePickerProps } from './date-pickers-part';

const loadPickers = () => import('./date-pickers-part');
const DatePickerPart = lazy(() => loadPickers().then((module) => ({ default: module.DatePickerPart })));
const RangePickerPart = lazy(() => loadPickers().then((module) => ({ default: module.RangePickerPart })));

const placeholderOf = (style: DatePickerProps['style']) => <Input disabled style={style} />;

export function DatePicker(props: DatePickerProps) {
  return (
    <Suspense fallback={placeholderOf(props.style)}>
      <DatePickerPart {...props} />
    </Suspense>
  );
}

export function RangePicker(props: RangePickerProps) {
  return (
    <Suspense fallback={placeholderOf(props.style)}>
      <RangePickerPart {...props} />
    </Suspense>
  );
}
