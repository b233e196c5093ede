/** Small statistics the benchmarks print. */

/** Ascending copy of a sample. */
export const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b);

/** The p-th percentile of an ascending sample by the nearest-rank method; NaN for an empty sample. */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
