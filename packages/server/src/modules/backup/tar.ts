import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

// The POSIX tar (ustar) framing of a backup file (docs/decisions/0127): 512-byte headers, each entry's bytes padded
// to 512, two zero blocks at the end. Only what a backup needs: regular files with ASCII names of at most 100 bytes
// and sizes below 8 GiB. `tar -tzf file` lists one; `tar -xzf` unpacks it.

const BLOCK = 512;
const MAX_SIZE = 8 * 1024 ** 3 - 1;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (!/^[\x21-\x7e]{1,100}$/.test(name)) throw new Error(`tar entry name not allowed: ${name}`);
  if (size > MAX_SIZE) throw new Error(`tar entry too large: ${name} (${size} bytes)`);
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 'ascii');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\x0000', 257, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes tar entries one after another to `out`, waiting whenever `out` asks it to. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  async addBuffer(name: string, data: Buffer): Promise<void> {
    await this.write(header(name, data.length, new Date()));
    await this.write(data);
    await this.write(padding(data.length));
  }

  /** An entry of `size` bytes read from `body`; `onChunk` sees each chunk (checksums). Fails if the body's length differs. */
  async addStream(name: string, size: number, body: Readable, onChunk: (chunk: Buffer) => void): Promise<void> {
    await this.write(header(name, size, new Date()));
    let seen = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > size) break;
      onChunk(chunk);
      await this.write(chunk);
    }
    if (seen !== size) {
      body.destroy();
      throw new Error(`${name}: expected ${size} bytes, the store gave ${seen > size ? 'more' : seen}`);
    }
    await this.write(padding(size));
  }

  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes; read it whole (or call skip) before asking for the next entry. */
  body: AsyncIterable<Buffer>;
}

/** Raised for a file that is not a tar of this kind, or ends early (with the reason in Chinese too). */
export class TarFormatError extends Error {
  constructor(
    message: string,
    readonly zh: string,
  ) {
    super(message);
  }
}

/** Reads entries from a tar stream, one at a time, without holding more than one chunk of it. */
export async function* readTar(input: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  const source = input[Symbol.asyncIterator]();
  let pending: Buffer = Buffer.alloc(0);
  const more = async (): Promise<boolean> => {
    const next = await source.next();
    if (next.done) return false;
    pending = pending.length ? Buffer.concat([pending, next.value]) : next.value;
    return true;
  };
  const take = async (n: number): Promise<Buffer> => {
    while (pending.length < n) if (!(await more())) throw new TarFormatError('the file ends in the middle of an entry', '文件在一个条目中间结束');
    const out = pending.subarray(0, n);
    pending = pending.subarray(n);
    return out;
  };
  for (;;) {
    const h = await take(BLOCK);
    if (h.every((b) => b === 0)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    const recorded = parseInt(h.toString('ascii', 148, 156).replace(/\0.*$/s, '').trim(), 8);
    if (h.toString('ascii', 257, 262) !== 'ustar' || recorded !== sum) throw new TarFormatError('a header of the file is damaged', '文件的一个条目头已损坏');
    const name = h.toString('ascii', 0, 100).replace(/\0.*$/s, '');
    const size = parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
    let left = size;
    let done = false;
    const body: AsyncIterable<Buffer> = {
      async *[Symbol.asyncIterator]() {
        while (left > 0) {
          if (!pending.length && !(await more())) throw new TarFormatError('the file ends in the middle of an entry', '文件在一个条目中间结束');
          const part = pending.subarray(0, Math.min(left, pending.length));
          pending = pending.subarray(part.length);
          left -= part.length;
          yield part;
        }
        done = true;
      },
    };
    yield { name, size, body };
    if (!done) for await (const _ of body); // an entry the reader did not read is skipped
    await take((BLOCK - (size % BLOCK)) % BLOCK);
  }
}
