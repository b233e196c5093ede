import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('resize', listener);
  return () => window.removeEventListener('resize', listener);
}

const readWidth = () => window.innerWidth;

/** The window's inner width, following resizes (the tab strip's width derives from it). */
export function useWindowWidth(): number {
  return useSyncExternalStore(subscribe, readWidth, readWidth);
}
