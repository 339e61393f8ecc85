import { buffer } from 'node:stream/consumers';
import type { PrintDocument } from '@tritium/shared/print/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { FileStore } from '../files/file-store.ts';
import type { FileUrlSigner } from '../files/file-url.ts';
import { findFiles } from '../files/files.repo.ts';

// Images of a printed record that are files of the engine — hand-sign fields, and trace signatures given as a file
// link — are assembled as `file:<id>` and resolved for where they are drawn (docs/decisions/0067): the browser gets a
// signed link it can load; the PDF gets the bytes inline as a data URL, because Chromium renders the document with no
// session and fetches nothing. A file that is missing or not an image prints nothing.

export const FILE_IMAGE = 'file:';
const FILE_LINK = /^\/v1\/file\/(?:download\/)?([0-9a-f-]{36})(?:[/?#]|$)/i;
const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;
/** A signature or a hand-sign image is small; a larger file is not inlined. */
const MAX_INLINE_BYTES = 2 * 1024 * 1024;

/** A trace signature or image source as assembled: data URLs kept, the engine's file links as `file:<id>`. */
export function imageRef(src: string | null): string | null {
  if (!src) return null;
  const link = src.match(FILE_LINK);
  return link ? `${FILE_IMAGE}${link[1]!.toLowerCase()}` : src;
}

function refsOf(documents: readonly PrintDocument[]): Set<string> {
  const ids = new Set<string>();
  const visit = (src: string | null | undefined) => src?.startsWith(FILE_IMAGE) && ids.add(src.slice(FILE_IMAGE.length));
  for (const d of documents) {
    Object.values(d.images).forEach(visit);
    d.trace.forEach((t) => visit(t.signature));
  }
  return ids;
}

function replaceRefs(documents: PrintDocument[], src: Map<string, string>): void {
  const swap = (s: string | null) => (s?.startsWith(FILE_IMAGE) ? (src.get(s.slice(FILE_IMAGE.length)) ?? null) : s);
  for (const d of documents) {
    for (const [code, s] of Object.entries(d.images)) {
      const to = swap(s);
      if (to) d.images[code] = to;
      else delete d.images[code];
    }
    for (const t of d.trace) t.signature = swap(t.signature);
  }
}

async function imageFiles(edb: EngineExecutor, documents: readonly PrintDocument[]) {
  const ids = [...refsOf(documents)];
  return ids.length ? (await findFiles(edb, ids)).filter((f) => IMAGE_TYPE.test(f.content_type)) : [];
}

/** For the browser: signed links (10 minutes). */
export async function linkImages(edb: EngineExecutor, engineCode: string, urls: FileUrlSigner, documents: PrintDocument[]): Promise<void> {
  const files = await imageFiles(edb, documents);
  replaceRefs(documents, new Map(files.map((f) => [f.id, urls.sign(engineCode, f.id, 600).url])));
}

/** For the PDF: the bytes inline. */
export async function inlineImages(edb: EngineExecutor, store: FileStore, documents: PrintDocument[]): Promise<void> {
  const src = new Map<string, string>();
  for (const f of await imageFiles(edb, documents)) {
    if (Number(f.size) > MAX_INLINE_BYTES) continue;
    const stream = await store.get(f.storage_key);
    if (stream) src.set(f.id, `data:${f.content_type};base64,${(await buffer(stream)).toString('base64')}`);
  }
  replaceRefs(documents, src);
}
