import { useEffect, useState } from 'react';

/**
 * The value as it was `delayMs` after it last changed; typing in a search box asks the server once
 * the user pauses, not on every key.
 * @example const keyword = useDebouncedValue(typed, 300);
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
