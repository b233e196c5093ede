import type { ReactNode } from 'react';
import type { ButtonValue } from '@campus/contract';
import { usePermission } from '../hooks/use-permission';

interface PermissionProps {
  /** The button value the caller must hold, e.g. 'add', 'export'. */
  button: ButtonValue;
  /** Frame route name; defaults to the enclosing tab's frame. */
  frame?: string;
  children: ReactNode;
}

/**
 * Renders its children only when the caller holds `button` on the frame; otherwise nothing at all
 * (the button is removed, not disabled, as the seed says).
 * @example <Permission button="add"><Button onClick={openAdd}>Add</Button></Permission>
 */
export function Permission({ button, frame, children }: PermissionProps) {
  const { can } = usePermission(frame);
  return can(button) ? <>{children}</> : null;
}
