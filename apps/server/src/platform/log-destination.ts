/**
 * Where the server's log lines go: standard output at LOG_LEVEL, and the platform log (the database)
 * at warn and above, with the platform's own events (info lines naming a `platformEvent`, and shed
 * requests), whatever LOG_LEVEL says — tests run silent and still keep their errors there.
 */
import type { PlatformLogSink } from './platform-log-sink.js';

type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

const LEVELS: Record<LogLevelName, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const WARN = LEVELS.warn;
const INFO = LEVELS.info;

/** An info line for the platform log: found by its key, so the other info lines (one per request) are never parsed. */
const isPlatformEventLine = (line: string) => line.includes('"platformEvent":') || line.includes('"shed":');

/** pino writes the level first (`{"level":50,...`): read it without parsing the line. */
const levelOf = (line: string) => Number(/"level":(\d+)/.exec(line)?.[1] ?? 0);

/** Whether lines at info reach standard output at this LOG_LEVEL. */
export const writesInfo = (outputLevel: LogLevelName): boolean => LEVELS[outputLevel] <= INFO;

/** The logger's own level: low enough for both destinations (the platform's events are info lines). */
export function loggerLevelFor(outputLevel: LogLevelName): LogLevelName {
  return writesInfo(outputLevel) ? outputLevel : 'info';
}

/** A pino destination (`logger.stream`) writing each line to its destinations by level. */
export function logDestination(outputLevel: LogLevelName, platformLog: PlatformLogSink, output: { write(line: string): unknown } = process.stdout) {
  const outputFrom = LEVELS[outputLevel];
  return {
    write(line: string) {
      const level = levelOf(line);
      if (level >= outputFrom) output.write(line);
      if (level >= WARN || (level >= INFO && isPlatformEventLine(line))) platformLog.write(line);
    },
  };
}
