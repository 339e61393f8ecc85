import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * One process per data folder (stack.md: two PGlite processes on one folder lose writes; docs/decisions/0116). The
 * lock is a listening local socket named after the folder's real path: the kernel closes it when its process dies,
 * however it dies (a zombie holds no sockets), so a restart after a crash always starts, while a second live server
 * meets EADDRINUSE. A connection to the socket answers the holder's pid, for the message.
 */
export async function lockDataDir(dataDir: string): Promise<{ release(): void }> {
  mkdirSync(dataDir, { recursive: true });
  const address = lockAddress(dataDir);
  let silent = 0;
  for (let attempt = 0; attempt < 20; attempt++) {
    const server = await listen(address);
    if (server) return { release: () => void server.close() };
    const holder = await holderPid(address);
    if (typeof holder === 'number') throw new DataDirLockedError(dataDir, holder);
    // A holder that takes the connection but never answers is a process still dying: its first thread is already a
    // zombie while the others close its files (measured: a few milliseconds). Three such answers are a live holder.
    if (holder === null && ++silent >= 3) throw new DataDirLockedError(dataDir, null);
    // Nobody listens: the name is being let go of, or a socket file was left behind (platforms without abstract
    // sockets), which is removed and taken.
    if (holder === 'none' && !address.startsWith('\0') && process.platform !== 'win32') unlinkQuietly(address);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new DataDirLockedError(dataDir, null);
}

function unlinkQuietly(file: string) {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Linux: an abstract socket; Windows: a named pipe; elsewhere a socket file (in the folder when the path fits). */
export function lockAddress(dataDir: string): string {
  const real = realpathSync(dataDir);
  const name = `tritium-data-${createHash('sha256').update(real).digest('hex').slice(0, 32)}`;
  if (process.platform === 'linux') return `\0${name}`;
  if (process.platform === 'win32') return `\\\\?\\pipe\\${name}`;
  const inside = path.join(real, 'tritium.sock');
  return Buffer.byteLength(inside) < 100 ? inside : path.join(os.tmpdir(), `${name}.sock`);
}

/** The listening lock socket, or null when another listener holds the address. */
function listen(address: string): Promise<net.Server | null> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.end(String(process.pid)));
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(null) : reject(error)));
    server.listen({ path: address, exclusive: true }, () => {
      // The lock lives as long as the process and keeps nothing else alive.
      server.unref();
      resolve(server);
    });
  });
}

/** The pid the holder answers: 'none' when nobody listens, null when it does not say in time. */
function holderPid(address: string): Promise<number | null | 'none'> {
  return new Promise((resolve) => {
    let text = '';
    let connected = false;
    const socket = net.connect({ path: address });
    const done = (value: number | null | 'none') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), 2_000);
    socket.on('connect', () => (connected = true));
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => done(Number(text) > 0 ? Number(text) : null));
    socket.on('error', () => done(connected ? null : 'none'));
  });
}

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number | null) {
    const zh = pid ? `（pid ${pid}）` : '';
    const en = pid ? ` (pid ${pid})` : '';
    super(`数据目录 ${dataDir} 正由另一个 Tritium 进程${zh}使用。请先停止它，或用 TRITIUM_DATA_DIR 指定其他目录。\n` +
      `The data folder ${dataDir} is in use by another Tritium process${en}. Stop it first, or set TRITIUM_DATA_DIR to another folder.`);
  }
}
