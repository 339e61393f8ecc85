import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// The streaming .xlsx reader of exceljs 4.4 walks the archive in one pass, entry by entry, and that pass now and then
// ends before the archive's last entry (exceljs issue 3064). A workbook written by exceljs stores xl/workbook.xml
// last, so the reader then fails with "Cannot read properties of undefined (reading 'sheets')"; a spreadsheet program
// that stores the shared strings last would lose every text cell. Seen as imports that failed one time in thirty
// on PostgreSQL. Here the archive is read through its central directory instead: the upload is copied to a temporary
// file (memory stays flat), the parts every sheet needs are read first, then the sheets in their order, each still
// row by row.

const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve('exceljs'));
// Loaded with the reader, not at start-up (src/lib/lazy-packages.ts).
type Unzip = {
  Open: { custom(source: { stream(offset: number, length?: number): Readable; size(): Promise<number> }): Promise<{ files: { path: string; stream(): Readable }[] }> };
};
const unzip = () => createRequire(path.join(root, 'package.json'))('unzipper') as Unzip;
const iterateStream = (stream: Readable) => (require(path.join(root, 'lib/utils/iterate-stream.js')) as (stream: Readable) => AsyncIterable<unknown>)(stream);
let applied = false;

interface ReaderInternals {
  input: unknown;
  options: { hyperlinks?: string };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseHyperlinks(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<unknown>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<unknown>;
}

const SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/** The zip's central directory of `file`; each byte range it opens is kept in `opened`, for the caller to close. */
function openDirectory(file: string, opened: ReadStream[]) {
  return unzip().Open.custom({
    stream(offset, length) {
      const s = createReadStream(file, { start: offset, end: length ? offset + length : undefined });
      opened.push(s);
      return s;
    },
    size: async () => (await stat(file)).size,
  });
}

async function* parseByDirectory(this: ReaderInternals, input?: unknown, options?: ReaderInternals['options']): AsyncGenerator<unknown> {
  if (options) this.options = options;
  const source = (input ?? this.input) as string | Readable;
  let spoolDir: string | undefined;
  let file: string;
  if (typeof source === 'string') file = source;
  else {
    spoolDir = await mkdtemp(path.join(os.tmpdir(), 'tritium-xlsx-'));
    file = path.join(spoolDir, 'upload.xlsx');
    await pipeline(source, createWriteStream(file));
  }
  // Every byte range the directory opens is closed at the end, also when the caller stops after a few rows.
  const opened: ReadStream[] = [];
  try {
    const directory = await openDirectory(file, opened);
    const entries = new Map(directory.files.map((f) => [f.path, f]));
    const open = (name: string) => entries.get(name)?.stream();
    const rels = open('xl/_rels/workbook.xml.rels');
    if (rels) await this._parseRels(rels);
    const book = open('xl/workbook.xml');
    if (book) await this._parseWorkbook(book);
    const strings = open('xl/sharedStrings.xml');
    if (strings) yield* this._parseSharedStrings(strings);
    const styles = open('xl/styles.xml');
    if (styles) await this._parseStyles(styles);
    const sheets = [...entries.keys()].flatMap((name) => {
      const match = SHEET.exec(name);
      return match ? [{ name, sheetNo: match[1]! }] : [];
    });
    sheets.sort((a, b) => Number(a.sheetNo) - Number(b.sheetNo));
    for (const { name, sheetNo } of sheets) {
      const links = this.options.hyperlinks === 'ignore' ? undefined : open(`xl/worksheets/_rels/sheet${sheetNo}.xml.rels`);
      if (links) yield* this._parseHyperlinks(iterateStream(links), sheetNo);
      yield* this._parseWorksheet(iterateStream(open(name)!), sheetNo);
    }
  } finally {
    for (const s of opened) s.destroy();
    if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
  }
}

/** Makes exceljs's streaming reader read archives through their central directory. Applied once, before the first read. */
export function readXlsxByDirectory(): void {
  if (applied) return;
  applied = true;
  const WorkbookReader = require(path.join(root, 'lib/stream/xlsx/workbook-reader.js'));
  WorkbookReader.prototype.parse = parseByDirectory;
}

/** A row element's start tag (`<row …>`, also with a namespace prefix: `<x:row …>`); `<rowBreaks>` is not one. */
const ROW_TAG = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;

/**
 * How many rows the first worksheet holds, counted from its row tags without parsing its XML (issue 26): an import's
 * progress is rows done out of these, and a full parse just to count them took as long as the import's own read.
 * Answers undefined when the archive cannot be read (the import's own read then reports the fault).
 */
export async function countXlsxRows(source: Readable): Promise<number | undefined> {
  const spoolDir = await mkdtemp(path.join(os.tmpdir(), 'tritium-xlsx-'));
  const file = path.join(spoolDir, 'upload.xlsx');
  const opened: ReadStream[] = [];
  try {
    await pipeline(source, createWriteStream(file));
    const directory = await openDirectory(file, opened);
    const sheets = directory.files.flatMap((f) => {
      const match = SHEET.exec(f.path);
      return match ? [{ file: f, sheetNo: Number(match[1]) }] : [];
    });
    sheets.sort((a, b) => a.sheetNo - b.sheetNo);
    if (!sheets.length) return 0;
    let rows = 0;
    let carry = '';
    for await (const chunk of sheets[0]!.file.stream() as AsyncIterable<Buffer>) {
      // A tag cut by the chunk's end is counted with the next chunk (a tag is shorter than 64 characters).
      const text = carry + chunk.toString('latin1');
      const cut = Math.max(0, text.length - 64);
      ROW_TAG.lastIndex = 0;
      for (let m = ROW_TAG.exec(text); m; m = ROW_TAG.exec(text)) if (m.index < cut) rows++;
      carry = text.slice(cut);
    }
    ROW_TAG.lastIndex = 0;
    for (let m = ROW_TAG.exec(carry); m; m = ROW_TAG.exec(carry)) rows++;
    return rows;
  } catch {
    return undefined;
  } finally {
    for (const s of opened) s.destroy();
    await rm(spoolDir, { recursive: true, force: true });
  }
}
