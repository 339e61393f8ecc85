import { Readable } from 'node:stream';
import { renderPrintHtml } from '@tritium/shared/print/index';
import { newId } from '../../lib/ids.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import type { FileStore } from '../files/file-store.ts';
import { insertFile } from '../files/files.repo.ts';
import { storageKeyOf } from '../files/storage-key.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { assembleDocuments, loadNames, sheetOf } from '../print/print-assemble.ts';
import { inlineImages } from '../print/print-images.ts';
import type { PdfRenderer } from '../print/print-pdf.ts';
import { layoutFor } from '../print/print-templates.service.ts';

// The document of a flow: the record printed with the e-sign control's print template (the print module's layout,
// assembly and Chromium PDF, docs/decisions/0050), as the initiator reads the record.

export const PDF_TYPE = 'application/pdf';

export async function renderRecordPdf(
  ctx: NodeContext,
  edb: EngineExecutor,
  form: RuntimeForm,
  objectId: string,
  templateCode: string | null,
  deps: { store: FileStore; pdf: PdfRenderer; publicUrl: string },
): Promise<Buffer> {
  const { layout } = await layoutFor(edb, form, templateCode);
  const documents = await assembleDocuments(ctx, form, layout, [objectId], await loadNames(edb), deps.publicUrl);
  await inlineImages(edb, deps.store, documents);
  const { pdf } = await deps.pdf.render(renderPrintHtml(layout, sheetOf(form, documents)));
  return pdf;
}

/** The bytes put in the store; the row is written by `recordFileRow` inside the transaction that keeps it. */
export async function storeBytes(store: FileStore, engineCode: string, bytes: Buffer): Promise<{ id: string; key: string; size: number }> {
  const id = newId();
  const key = storageKeyOf(engineCode, id);
  await store.put(key, Readable.from(bytes), { maxBytes: bytes.length + 1 });
  return { id, key, size: bytes.length };
}

export function recordFileRow(edb: EngineExecutor, stored: { id: string; key: string; size: number }, name: string, createdBy: string) {
  return insertFile(edb, { id: stored.id, scene: 'attachment', name, size: stored.size, content_type: PDF_TYPE, storage_key: stored.key, created_by: createdBy });
}

/** A file name without the characters file systems refuse. */
export const fileNameOf = (title: string, suffix: string) => `${title.replace(/[\\/:*?"<>|\r\n]+/g, ' ').trim().slice(0, 80) || 'document'}${suffix}.pdf`;
