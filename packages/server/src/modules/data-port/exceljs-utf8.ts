import { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable } from 'node:stream';

// The streaming .xlsx reader of exceljs 4.4 decodes every chunk of a sheet (and of the shared strings) as UTF-8 on
// its own, so a Chinese character split between two chunks comes out as U+FFFD (found by the import benchmark:
// one row in a few hundred). Its parser takes text chunks as they are, so the chunks are decoded here first, with a
// decoder that carries the split bytes over to the next chunk. Applied once, before the first read.

const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve('exceljs'));
let applied = false;

async function* decoded(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

function decodedStream(entry: Readable): Readable {
  const decoder = new StringDecoder('utf8');
  const out = new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _e, done) {
      const text = decoder.write(chunk);
      if (text) this.push(text);
      done();
    },
    flush(done) {
      const rest = decoder.end();
      if (rest) this.push(rest);
      done();
    },
  });
  entry.on('error', (e) => out.destroy(e));
  return entry.pipe(out);
}

export function fixExcelJsUtf8(): void {
  if (applied) return;
  applied = true;
  const WorksheetReader = require(path.join(root, 'lib/stream/xlsx/worksheet-reader.js'));
  const WorkbookReader = require(path.join(root, 'lib/stream/xlsx/workbook-reader.js'));
  const parse = WorksheetReader.prototype.parse;
  WorksheetReader.prototype.parse = function (this: { iterator: AsyncIterable<Buffer | string> }) {
    this.iterator = decoded(this.iterator);
    return parse.call(this);
  };
  const sharedStrings = WorkbookReader.prototype._parseSharedStrings;
  WorkbookReader.prototype._parseSharedStrings = function (this: unknown, entry: Readable) {
    return sharedStrings.call(this, decodedStream(entry));
  };
}
