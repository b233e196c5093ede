import { useEffect, useState } from 'react';

/** False, then true after `delayMs` (the menu is fetched MENU_FETCH_DELAY_MS after start). */
export function useDelayedFlag(delayMs: number): boolean {
  const [isReady, setReady] = useState(delayMs <= 0);
  useEffect(() => {
    if (delayMs <= 0) return;
    const timer = setTimeout(() => setReady(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return isReady;
}
