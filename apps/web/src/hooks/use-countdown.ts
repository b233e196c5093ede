import { useCallback, useEffect, useState } from 'react';

/** Seconds before an SMS code may be asked for again. */
export const SMS_RESEND_SECONDS = 60;

/**
 * A countdown measured against the clock, not by counting ticks, so it stays right while its tab
 * is hidden (browsers slow timers down in background tabs).
 * @example const countdown = useCountdown(); countdown.start(); countdown.remaining // 60, 59, …
 */
export function useCountdown(seconds: number = SMS_RESEND_SECONDS, startedAt?: number | null) {
  const [endsAt, setEndsAt] = useState<number | null>(() => (startedAt ? startedAt + seconds * 1000 : null));
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= endsAt) {
        clearInterval(timer);
        setEndsAt(null);
      }
    }, 250);
    return () => clearInterval(timer);
  }, [endsAt]);

  const start = useCallback(() => {
    const current = Date.now();
    setNow(current);
    setEndsAt(current + seconds * 1000);
  }, [seconds]);

  const remaining = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
  return { remaining, isRunning: remaining > 0, start };
}
