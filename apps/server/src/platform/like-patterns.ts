/** LIKE patterns from user input: `%`, `_` and `\` match themselves, never as wildcards. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Pattern matching values that contain `value`. */
export const containsPattern = (value: string) => `%${escapeLike(value)}%`;

/** Pattern matching values that start with `value`. */
export const prefixPattern = (value: string) => `${escapeLike(value)}%`;
