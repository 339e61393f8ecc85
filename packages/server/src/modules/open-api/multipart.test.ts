import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boundaryOf, readMultipart } from './multipart.ts';

// The multipart reader of the attachment calls (docs/decisions/0030): the bodies the public clients build, cut into
// chunks of every size, binary content that looks like a boundary, text fields, and malformed bodies.

const BOUNDARY = '----------18c2f9a0b1e';
/** The body h3yun's Python client builds for UploadAttachment (h3yun-facts §1.6). */
function pythonBody(fileName: string, content: Buffer, contentType = 'application/octet-stream'): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="media"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`, 'utf8'),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`, 'ascii'),
  ]);
}

function chunked(body: Buffer, size: number): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) parts.push(body.subarray(i, i + size));
  return Readable.from(parts);
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of stream) out.push(c as Buffer);
  return Buffer.concat(out);
}

describe('readMultipart', () => {
  it('reads the boundary from the Content-Type', () => {
    expect(boundaryOf(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(boundaryOf('application/json')).toBeUndefined();
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
  });

  it('streams the media part byte for byte whatever the chunk size, with its UTF-8 name and type', async () => {
    // Content that holds CRLF, dashes and most of the delimiter, and ends with CR.
    const content = Buffer.concat([randomBytes(5000), Buffer.from(`\r\n--${BOUNDARY.slice(0, -1)}x\r\n--\r`), randomBytes(3000), Buffer.from('\r')]);
    for (const size of [1, 7, 64, 4096, 1 << 20]) {
      const { file } = await readMultipart(chunked(pythonBody('合同 v2.pdf', content, 'application/pdf'), size), BOUNDARY, 'media');
      expect(file?.fileName).toBe('合同 v2.pdf');
      expect(file?.contentType).toBe('application/pdf');
      expect((await bytesOf(file!.body)).equals(content), `chunk ${size}`).toBe(true);
    }
  });

  it('reads an empty file, text fields before the file, and a body without the file part', async () => {
    const empty = await readMultipart(chunked(pythonBody('empty.txt', Buffer.alloc(0)), 3), BOUNDARY, 'media');
    expect((await bytesOf(empty.file!.body)).length).toBe(0);
    const withFields = Buffer.concat([
      Buffer.from(`preamble\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachmentId"\r\n\r\nabc-123\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="EngineCode"\r\n\r\ne1\r\n--${BOUNDARY}--`),
    ]);
    const read = await readMultipart(chunked(withFields, 5), BOUNDARY);
    expect(read.file).toBeUndefined();
    expect(Object.fromEntries(read.fields)).toEqual({ attachmentId: 'abc-123', EngineCode: 'e1' });
  });

  it('refuses a body that ends before its closing boundary or has no parts', async () => {
    await expect(readMultipart(chunked(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\nhalf`), 4), BOUNDARY, 'media')).rejects.toThrow(/closing boundary/);
    await expect(readMultipart(Readable.from([Buffer.from('no parts at all')]), BOUNDARY, 'media')).rejects.toThrow();
    // The file part itself cut short: its stream fails, so nothing half-written is kept.
    const cut = pythonBody('a.bin', randomBytes(2000)).subarray(0, 1500);
    const { file } = await readMultipart(chunked(cut, 100), BOUNDARY, 'media');
    await expect(bytesOf(file!.body)).rejects.toThrow();
  });
});
