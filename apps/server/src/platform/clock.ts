/** The time source of the platform; tests pass their own so nothing depends on the wall clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
