import { useMemo } from 'react';
import type { ButtonValue } from '@campus/contract';
import { useNavigationTree } from './use-navigation';
import { useTabPane } from './use-tab-pane';

export interface PermissionCheck {
  /** Button values the caller holds on the frame. */
  buttons: ReadonlySet<string>;
  /** Whether the caller holds this button on the frame. */
  can: (button: ButtonValue) => boolean;
  /** False until the navigation tree has arrived; until then no button is granted. */
  isLoaded: boolean;
}

/**
 * The caller's button permissions on a frame (SEED-SPEC section 6: buttons whose value is absent
 * from the route's permission list are removed). Without an argument it reads the enclosing tab's
 * frame, which is right even while that tab is hidden (the URL then belongs to another tab).
 * @example const { can } = usePermission(); can('add') && <Button>Add</Button>
 */
export function usePermission(frameIndex?: string): PermissionCheck {
  const pane = useTabPane();
  const index = frameIndex ?? pane?.index ?? '';
  const { data: tree } = useNavigationTree();
  return useMemo(() => {
    const frame = tree?.flatMap((group) => group.children).find((candidate) => candidate.index === index);
    const buttons: ReadonlySet<string> = new Set(frame?.authorised ? frame.buttons : []);
    return { buttons, can: (button: ButtonValue) => buttons.has(button), isLoaded: tree !== undefined };
  }, [tree, index]);
}
