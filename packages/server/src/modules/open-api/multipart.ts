import { PassThrough, type Readable } from 'node:stream';
import { once } from 'node:events';

// A small streaming reader of multipart/form-data (RFC 7578), for the product's attachment calls (h3yun-facts §1.4):
// the file part's bytes flow on as a stream — into the file store under its byte cap — and are never held whole in
// memory; other parts are small text fields. No multipart library is installed (docs/decisions/0008, 0030).

/** Headers of one part and text fields are small: anything longer is not a client of this API. */
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;

export interface FilePart {
  fileName: string;
  contentType: string | undefined;
  body: Readable;
}

export class MultipartError extends Error {}

/** The boundary of a `multipart/form-data; boundary=…` Content-Type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType.trim())) return undefined;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

function headerParam(header: string, name: string): string | undefined {
  const star = new RegExp(`;\\s*${name}\\*=(?:UTF-8|utf-8)''([^;]+)`).exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      return undefined;
    }
  }
  const m = new RegExp(`;\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(header);
  return m ? (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2].trim()) : undefined;
}

interface PartHeaders {
  name: string | undefined;
  fileName: string | undefined;
  contentType: string | undefined;
}

function parseHeaders(block: string): PartHeaders {
  const out: PartHeaders = { name: undefined, fileName: undefined, contentType: undefined };
  for (const line of block.split('\r\n')) {
    const at = line.indexOf(':');
    if (at < 0) continue;
    const key = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    if (key === 'content-disposition') {
      out.name = headerParam(value, 'name');
      out.fileName = headerParam(value, 'filename');
    } else if (key === 'content-type') out.contentType = value;
  }
  return out;
}

/**
 * Reads `source` (a multipart body with `boundary`). Resolves as soon as the part named `fileField` begins (its
 * bytes then stream through `file.body`, the rest of the body is read after it), or when the body ends without one.
 * `fields` holds the text parts seen so far. A malformed body rejects with MultipartError (or fails `file.body`).
 */
export function readMultipart(source: Readable, boundary: string, fileField?: string): Promise<{ file?: FilePart; fields: Map<string, string> }> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length + 1;
  const fields = new Map<string, string>();
  let resolveFile: (value: { file?: FilePart; fields: Map<string, string> }) => void = () => {};
  let rejectFile: (error: Error) => void = () => {};
  const result = new Promise<{ file?: FilePart; fields: Map<string, string> }>((resolve, reject) => {
    resolveFile = resolve;
    rejectFile = reject;
  });
  let settled = false;
  const settle = (file?: FilePart) => {
    if (!settled) resolveFile({ file, fields });
    settled = true;
  };

  let sink: PassThrough | null = null;
  (async () => {
    // A leading CRLF lets the first boundary be found like every other one.
    let buf = Buffer.from('\r\n');
    type State = 'between' | 'headers' | 'body' | 'done';
    let state: State = 'between' as State;
    let field: { name: string; chunks: Buffer[]; size: number } | null = null;
    const emit = async (bytes: Buffer) => {
      if (!bytes.length) return;
      if (sink) {
        if (sink.destroyed) return;
        if (!sink.write(bytes)) await Promise.race([once(sink, 'drain'), once(sink, 'close')]);
      } else if (field) {
        field.size += bytes.length;
        if (field.size > MAX_FIELD_BYTES) throw new MultipartError('field too large');
        field.chunks.push(bytes);
      }
    };
    /** One step of the reader on what `buf` holds; false when it needs more bytes. */
    const step = async (): Promise<boolean> => {
      if (state === 'between') {
        const at = buf.indexOf(delimiter);
        if (at < 0) {
          buf = buf.subarray(Math.max(0, buf.length - keep));
          return false;
        }
        const rest = buf.subarray(at + delimiter.length);
        if (rest.length < 2) return false;
        if (rest[0] === 0x2d && rest[1] === 0x2d) {
          state = 'done';
          return false;
        }
        // Transport padding may follow the boundary, then CRLF.
        const eol = rest.indexOf('\r\n');
        if (eol < 0) return false;
        buf = rest.subarray(eol + 2);
        state = 'headers';
        return true;
      }
      if (state === 'headers') {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw new MultipartError('part headers too large');
          return false;
        }
        const headers = parseHeaders(buf.subarray(0, end).toString('utf8'));
        buf = buf.subarray(end + 4);
        state = 'body';
        if (fileField !== undefined && headers.name === fileField && !settled) {
          sink = new PassThrough();
          settle({ fileName: headers.fileName ?? '', contentType: headers.contentType, body: sink });
        } else if (headers.fileName === undefined && headers.name) field = { name: headers.name, chunks: [], size: 0 };
        return true;
      }
      if (state === 'body') {
        // The part's bytes end where "\r\n--boundary" begins.
        const at = buf.indexOf(delimiter);
        if (at < 0) {
          const safe = Math.max(0, buf.length - keep);
          await emit(buf.subarray(0, safe));
          buf = buf.subarray(safe);
          return false;
        }
        await emit(buf.subarray(0, at));
        if (sink) sink.end();
        if (field && !fields.has(field.name)) fields.set(field.name, Buffer.concat(field.chunks).toString('utf8'));
        sink = null;
        field = null;
        buf = buf.subarray(at);
        state = 'between';
        return true;
      }
      return false;
    };
    for await (const chunk of source) {
      if (state === 'done') continue;
      buf = Buffer.concat([buf, chunk as Buffer]);
      while (await step());
    }
    if (state !== 'done') throw new MultipartError('body ended before the closing boundary');
    settle();
  })().catch((error: unknown) => {
    const failure = error instanceof MultipartError ? error : new MultipartError(String((error as Error)?.message ?? error));
    if (!settled) {
      settled = true;
      rejectFile(failure);
    } else if (sink && !sink.destroyed) (sink as PassThrough).destroy(failure);
  });
  return result;
}
