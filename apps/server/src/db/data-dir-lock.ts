import fs from 'node:fs';
import path from 'node:path';

/** Thrown when another live process holds the data directory. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DataDirLock {
  release(): void;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; it is alive all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLockPid(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function tryCreateLock(lockPath: string): boolean {
  try {
    fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Takes DATA_DIR/.lock (created exclusively, holding our pid). PGlite has no lock of its own and two
 * processes on one directory corrupt it. A lock left by a dead process is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, '.lock');
  if (!tryCreateLock(lockPath)) {
    const holder = readLockPid(lockPath);
    if (holder !== undefined && isProcessAlive(holder)) {
      throw new DataDirLockedError(
        `another Campus Ops Console process is using DATA_DIR ${dataDir} (pid ${holder}); stop it or set another DATA_DIR`,
      );
    }
    fs.rmSync(lockPath, { force: true });
    if (!tryCreateLock(lockPath)) {
      throw new DataDirLockedError(`another Campus Ops Console process took DATA_DIR ${dataDir} at the same moment`);
    }
  }
  return {
    release() {
      if (readLockPid(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
    },
  };
}
