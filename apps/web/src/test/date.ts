import { fireEvent } from '@testing-library/react';

/** Types both ends of the antd RangePicker inside `container` (format YYYY-MM-DD HH:mm:ss with showTime), Enter after each. */
export function typeRange(container: ParentNode, start: string, end: string): void {
  const inputs = container.querySelectorAll<HTMLInputElement>('.ant-picker-range input');
  if (inputs.length !== 2) throw new Error(`expected a range picker, found ${inputs.length} inputs`);
  for (const [input, value] of [
    [inputs[0]!, start],
    [inputs[1]!, end],
  ] as const) {
    fireEvent.mouseDown(input);
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value } });
    fireEvent.keyDown(input, { key: 'Enter' });
  }
}
