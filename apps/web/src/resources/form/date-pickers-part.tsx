/** The pickers themselves, in the chunk deferred-inputs.tsx downloads when a date filter first shows. */
import { DatePicker } from 'antd';
import type { ComponentProps } from 'react';

export type DatePickerProps = ComponentProps<typeof DatePicker>;
export type RangePickerProps = ComponentProps<typeof DatePicker.RangePicker>;

export function DatePickerPart(props: DatePickerProps) {
  return <DatePicker {...props} />;
}

export function RangePickerPart(props: RangePickerProps) {
  return <DatePicker.RangePicker {...props} />;
}
