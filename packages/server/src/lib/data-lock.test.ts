import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-lock.ts';

describe('data folder lock', () => {
  it('refuses a second holder while the first runs, and frees the folder on release', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-lock-'));
    // A lock held by another live process (this test's parent).
    writeFileSync(path.join(dir, 'tritium.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    rmSync(path.join(dir, 'tritium.lock'));
    const lock = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'tritium.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(() => readFileSync(path.join(dir, 'tritium.lock'))).toThrow();
    rmSync(dir, { recursive: true });
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-lock-'));
    writeFileSync(path.join(dir, 'tritium.lock'), '999999');
    const lock = lockDataDir(dir);
    lock.release();
    rmSync(dir, { recursive: true });
  });
});
