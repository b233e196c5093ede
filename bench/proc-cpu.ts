/** CPU a process has used, read from /proc (Linux): the benches' measure of cost whatever the machine's load. */
import { readFileSync } from 'node:fs';

/** /proc times are in clock ticks of 1/100 s (USER_HZ) on Linux. */
const TICK_MS = 1000 / 100;

/** Fields of /proc/PID/stat after the command name (which may hold spaces), or undefined once it has gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** utime + stime of a process in ms, or 0 once it has gone. */
export function cpuMsOf(pid: number): number {
  // utime and stime are the stat's 14th and 15th fields.
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * TICK_MS : 0;
}

/** cutime + cstime of a process in ms: the CPU of its children that have ended and been waited for. */
export function childrenCpuMs(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[13]) + Number(fields[14])) * TICK_MS : 0;
}
