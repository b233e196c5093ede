import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { usePreventDoubleClick, type PreventDoubleClick } from '../hooks/use-prevent-double-click';

type SubmitButtonProps = Omit<ButtonProps, 'onClick'> &
  (
    | { /** Action of a stand-alone button; blocked for 3000 ms after each click. */ onClick: (event: MouseEvent<HTMLElement>) => unknown; guard?: never }
    | { /** The guard of a form whose onFinish runs `guard.run`; the button only mirrors its state. */ guard: Pick<PreventDoubleClick<unknown[]>, 'isBlocked' | 'isRunning'>; onClick?: never }
  );

/**
 * A button that cannot be clicked twice within PREVENT_DOUBLE_CLICK_MS.
 * @example <SubmitButton type="primary" onClick={() => exportRows()}>Export</SubmitButton>
 * @example <Form onFinish={save.run}> … <SubmitButton guard={save} htmlType="submit">Save</SubmitButton>
 */
export function SubmitButton({ onClick, guard, ...buttonProps }: SubmitButtonProps) {
  const ownGuard = usePreventDoubleClick((event: MouseEvent<HTMLElement>) => onClick?.(event));
  if (guard) {
    return <Button {...buttonProps} loading={guard.isRunning} disabled={buttonProps.disabled || (guard.isBlocked && !guard.isRunning)} />;
  }
  return (
    <Button
      {...buttonProps}
      loading={ownGuard.isRunning}
      disabled={buttonProps.disabled || (ownGuard.isBlocked && !ownGuard.isRunning)}
      onClick={ownGuard.run}
    />
  );
}
