import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DataDirLockedError, lockAddress, lockDataDir } from './data-lock.ts';

const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-lock-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

const stateOf = (pid: number) => {
  try {
    return /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 'gone';
  } catch {
    return 'gone';
  }
};

describe('data folder lock', () => {
  it('refuses a second holder while the first holds it, naming its pid, and frees the folder on release', async () => {
    const dir = tempDir();
    const lock = await lockDataDir(dir);
    const refused = await lockDataDir(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toContain(`正由另一个 Tritium 进程（pid ${process.pid}）`);
    expect((refused as Error).message).toContain('TRITIUM_DATA_DIR');
    lock.release();
    await new Promise((r) => setTimeout(r, 20));
    (await lockDataDir(dir)).release();
  });

  it('names the folder by its real path: a symlink to a held folder is refused', async () => {
    const dir = tempDir();
    const link = path.join(tempDir(), 'link');
    symlinkSync(dir, link);
    expect(lockAddress(link)).toBe(lockAddress(dir));
    const lock = await lockDataDir(dir);
    await expect(lockDataDir(link)).rejects.toBeInstanceOf(DataDirLockedError);
    lock.release();
  });

  it('ignores a pid file of an earlier version, even one naming a live process', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'tritium.lock'), String(process.ppid));
    (await lockDataDir(dir)).release();
  });

  it.skipIf(process.platform !== 'linux')('is free once its holder is killed, though the holder is an unreaped zombie', async () => {
    const dir = tempDir();
    const holder = `require('node:net').createServer((s) => s.end(String(process.pid))).listen({ path: ${JSON.stringify(lockAddress(dir))} }, () => console.log('held'))`;
    // The holder's parent execs a sleep that never reaps it.
    const keeper = spawn('sh', ['-c', 'setsid "$0" -e "$1" & echo "$!"; exec sleep 60', process.execPath, holder], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    onTestFinished(() => void keeper.kill('SIGKILL'));
    let said = '';
    await new Promise<void>((resolve) =>
      keeper.stdout!.on('data', (d) => {
        said += d;
        if (said.includes('held')) resolve();
      }),
    );
    const pid = Number(said.split('\n')[0]);
    onTestFinished(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already ended
      }
    });
    await expect(lockDataDir(dir)).rejects.toThrow(`pid ${pid}`);
    process.kill(-pid, 'SIGKILL');
    for (let i = 0; i < 100 && stateOf(pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(stateOf(pid)).toBe('Z');
    (await lockDataDir(dir)).release();
  });
});
