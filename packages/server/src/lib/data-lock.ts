import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * One process per data folder (stack.md: two PGlite processes on one folder lose writes). The lock file holds the
 * owner's pid; a lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'tritium.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner && owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(dataDir, owner);
      }
      unlinkSync(file);
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`数据目录 ${dataDir} 正由另一个 Tritium 进程（pid ${pid}）使用。请先停止它，或用 TRITIUM_DATA_DIR 指定其他目录。\n` +
      `The data folder ${dataDir} is in use by another Tritium process (pid ${pid}). Stop it first, or set TRITIUM_DATA_DIR to another folder.`);
  }
}
