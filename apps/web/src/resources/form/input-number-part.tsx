/** antd's InputNumber for numbers, in the chunk deferred-inputs.tsx downloads when a number input first shows. */
import { InputNumber, type InputNumberProps } from 'antd';

export function InputNumberPart(props: InputNumberProps<number>) {
  return <InputNumber<number> {...props} />;
}
