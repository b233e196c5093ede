import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { PREVENT_DOUBLE_CLICK_MS } from '@campus/contract';

export interface PreventDoubleClick<Args extends unknown[]> {
  /** Runs the action unless a previous click is still blocking; clicks while blocked are dropped. */
  run: (...args: Args) => void;
  /** True from a click until both the block time has passed and the action has settled. */
  isBlocked: boolean;
  /** True while the action's promise is pending (for a spinner). */
  isRunning: boolean;
}

/**
 * Blocks a button for PREVENT_DOUBLE_CLICK_MS (3000 ms, SEED-SPEC section 9) after a click, or
 * until the action's promise settles, whichever is later.
 * @example
 * const submit = usePreventDoubleClick(async (values: Form) => save(values));
 * <Form onFinish={submit.run}>…<Button htmlType="submit" disabled={submit.isBlocked} loading={submit.isRunning} />
 */
export function usePreventDoubleClick<Args extends unknown[]>(
  action: (...args: Args) => unknown,
  blockMs: number = PREVENT_DOUBLE_CLICK_MS,
): PreventDoubleClick<Args> {
  const [isBlocked, setBlocked] = useState(false);
  const [isRunning, setRunning] = useState(false);
  const blockedRef = useRef(false);
  const actionRef = useRef(action);
  const mountedRef = useRef(true);
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);

  // A layout effect, not a passive one: it runs as the render commits, before any event can reach the
  // new DOM. A click in the gap before a passive effect ran the previous render's action (the login sent
  // the image code's id of before the image arrived: an empty one).
  useLayoutEffect(() => {
    actionRef.current = action;
  }, [action]);

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
      if (timerRef.current) clearTimeout(timerRef.current);
    };
  }, []);

  const run = useCallback(
    (...args: Args) => {
      // A ref, not state: two clicks in the same frame both see the state before either re-render.
      if (blockedRef.current) return;
      blockedRef.current = true;
      setBlocked(true);

      let timePassed = false;
      let settled = false;
      const release = () => {
        if (!timePassed || !settled) return;
        blockedRef.current = false;
        if (mountedRef.current) setBlocked(false);
      };
      timerRef.current = setTimeout(() => {
        timePassed = true;
        release();
      }, blockMs);

      const settle = () => {
        settled = true;
        if (mountedRef.current) setRunning(false);
        release();
      };
      try {
        const result = actionRef.current(...args);
        if (result instanceof Promise) {
          setRunning(true);
          // The action reports its own failures (the request client toasts); the button only waits.
          result.then(settle, settle);
        } else {
          settle();
        }
      } catch (error) {
        settle();
        throw error;
      }
    },
    [blockMs],
  );

  return { run, isBlocked, isRunning };
}
