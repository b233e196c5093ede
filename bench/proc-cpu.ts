/** CPU a process has used, read from /proc (Linux): the benches' measure of cost whatever the machine's load. */
import { readFileSync } from 'node:fs';

/** /proc times are in clock ticks of 1/100 s (USER_HZ) on Linux. */
const TICK_MS = 1000 / 100;

/** utime + stime of a process in ms, or 0 once it has gone. */
export function cpuMsOf(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces) start at ") ": utime and stime are the 14th and 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}
