import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { PassThrough, Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { AppError } from '../../lib/app-error.ts';
import { checkHeader, damaged, type BackupHeader } from './format.ts';
import { readTar, TarFormatError, TarWriter, type TarEntry } from './tar.ts';

// Opening backup files for writing and reading: gzip around the tar, written beside its final name and renamed when
// complete (a failed backup leaves no file that looks whole), read with the header checked first.

export interface WrittenFile {
  size: number;
  sha256: string;
}

/** Runs `write` into a new backup file at `file`; the file appears only when `write` succeeded. */
export async function writeBackupFile<T>(file: string, write: (tar: TarWriter) => Promise<T>): Promise<T & WrittenFile> {
  const partial = `${file}.partial`;
  const gzip = createGzip({ level: 6 });
  const hash = createHash('sha256');
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _e, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const out = createWriteStream(partial, { flags: 'wx' });
  const written = finished(gzip.pipe(count).pipe(out));
  try {
    const tar = new TarWriter(gzip);
    const result = await write(tar);
    await tar.finish();
    gzip.end();
    await written;
    await rename(partial, file);
    return { ...result, size, sha256: hash.digest('hex') };
  } catch (error) {
    gzip.destroy();
    out.destroy();
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}

export interface OpenedBackup {
  header: BackupHeader;
  /** The entries after backup.json, in order. */
  entries: AsyncGenerator<TarEntry>;
  /** The SHA-256 of the file's bytes read so far (the whole file once the entries are read to the end). */
  sha256(): string;
  close(): void;
}

/** Opens a backup file and reads its header; refuses what is not a backup, or is of a newer format or migration. */
export async function openBackupFile(file: string): Promise<OpenedBackup> {
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new Error('not a file');
  } catch {
    throw new AppError('BackupFileMissing', { detail: { file } });
  }
  const source = createReadStream(file);
  const hash = createHash('sha256');
  const tee = new PassThrough();
  source.on('data', (chunk) => hash.update(chunk as Buffer));
  source.on('error', (e) => tee.destroy(e));
  const gunzip = createGunzip();
  source.pipe(gunzip);
  gunzip.pipe(tee);
  gunzip.on('error', (e) => tee.destroy(e));
  const entries = readTar(tee as AsyncIterable<Buffer>);
  const close = () => {
    source.destroy();
    gunzip.destroy();
    tee.destroy();
  };
  try {
    const first = await entries.next();
    if (first.done || first.value.name !== 'backup.json') throw new AppError('BackupUnreadable');
    const header = checkHeader(JSON.parse((await readAll(first.value.body)).toString('utf8')));
    return { header, entries, sha256: () => hash.copy().digest('hex'), close };
  } catch (error) {
    close();
    if (error instanceof AppError) throw error;
    // Not gzip, not a tar, not JSON: not a backup at all.
    throw new AppError('BackupUnreadable');
  }
}

/** An entry's bytes in one buffer (the small entries: JSON and row chunks). */
export async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

/** What reading a file can throw, as the catalogue says it: a cut or altered file is "damaged". */
export function asBackupError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof TarFormatError) return damaged(error.zh, error.message);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && code.startsWith('Z_')) return code === 'Z_BUF_ERROR' ? damaged('文件提前结束', 'the file ends too early') : damaged('压缩数据被改动过', 'the compressed data is altered');
  if (error instanceof SyntaxError) return damaged('有条目不是有效的 JSON', 'an entry is not valid JSON');
  return error;
}
