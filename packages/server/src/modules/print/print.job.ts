import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import { numbersPerRecord, RECORD_MARK, renderPrintHtml, type PrintLayout, type PrintSheet } from '@tritium/shared/print/index';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { JobHandler } from '../../jobs/job-registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { assertCan } from '../permission/form-rights.ts';
import { ownerContext } from '../data-port/task-files.ts';
import type { FileStore } from '../files/file-store.ts';
import { insertFile } from '../files/files.repo.ts';
import { storageKeyOf } from '../files/storage-key.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { queryRecords } from '../query/query.service.ts';
import { viewNarrowing } from '../view/view-query.service.ts';
import { assembleDocuments, loadNames, printableIds, sheetOf } from './print-assemble.ts';
import { markedPages, pagesPerRecord, type PdfRenderer } from './print-pdf.ts';
import { findPrintTask, type PrintSelection } from './print-tasks.repo.ts';
import { layoutFor } from './print-templates.service.ts';
import { inlineImages } from './print-images.ts';
import { EXCEL_LAYOUT, excelPrintHtml, findExcelTemplate, PDF_TYPE } from './print-excel.service.ts';

// The print job (issue 24; docs/decisions/0050): the spec's stages in order — Print (claimed), LoadData (which
// records: the selection or the filtered view, under the owner's rights now), AssembleData (texts, sub-table rows,
// QR contents, the trace), CalcPage (Chromium lays the pages out), GenerateFile (the PDF), Complete. The stage
// travels as the job's progress message. A job killed midway holds nothing: its lease runs out, the sweep makes it
// Timeout (shown as Error, retryable), and a retry starts it from LoadData. The PDF is kept for `keepHours`.

export const PRINT_JOB = 'print.paper';
const CHUNK = 50;
const PAGE = 500;

export interface PrintDeps {
  store: FileStore;
  pdf: PdfRenderer;
  /** How long a finished PDF is kept for download (TRITIUM_PRINT_KEEP_HOURS, 24). */
  keepHours: number;
  /** Pause after each chunk of assembled records (TRITIUM_PRINT_CHUNK_DELAY_MS; tests slow a job down with it). */
  chunkDelayMs: number;
}

export function printSettings(env: NodeJS.ProcessEnv = process.env): Pick<PrintDeps, 'keepHours' | 'chunkDelayMs'> {
  const keep = Number(env.TRITIUM_PRINT_KEEP_HOURS);
  return { keepHours: Number.isFinite(keep) && keep > 0 ? keep : 24, chunkDelayMs: Number(env.TRITIUM_PRINT_CHUNK_DELAY_MS ?? 0) || 0 };
}

/** The records of a selection the caller may read, in order: chosen ids, or every row of the (filtered) view. */
export async function selectedIds(ctx: NodeContext, form: RuntimeForm, selection: Omit<PrintSelection, 'baseUrl'>): Promise<string[]> {
  const edb = engineDb(ctx.db, ctx.engineCode);
  if (selection.objectIds?.length) return printableIds(edb, form, selection.objectIds, ctx.userId);
  const narrowing = selection.viewCode
    ? (await viewNarrowing(ctx, { schemaCode: form.node.code, viewCode: selection.viewCode, filter: selection.filter, keyword: selection.keyword })).narrowing
    : { schemaCode: form.node.code, filter: selection.filter };
  const ids: string[] = [];
  for (let page = 0; ; page++) {
    const result = await queryRecords(ctx, { ...narrowing, ...(selection.status ? { status: selection.status } : {}), sort: selection.sort, pageIndex: page, pageSize: PAGE });
    if (result.total > contracts.PRINT_BATCH_MAX) throw new AppError('PrintBatchTooLarge', { detail: { max: contracts.PRINT_BATCH_MAX, total: result.total } });
    ids.push(...result.list.map((r) => String(r.ObjectId)));
    if (!result.hasMore) break;
  }
  return ids;
}

/**
 * The print's HTML. When each record numbers its own pages (`第 1 页 / 共 n 页` per record), a first layout finds where
 * each record starts (its marked first page) and the second is drawn with every record's count (docs/decisions/0067).
 */
async function numberedHtml(pdf: PdfRenderer, layout: PrintLayout, sheet: PrintSheet): Promise<string> {
  if (!numbersPerRecord(layout, sheet)) return renderPrintHtml(layout, sheet);
  const first = await pdf.render(renderPrintHtml(layout, sheet, {}));
  const recordPages = pagesPerRecord(await markedPages(first.pdf, RECORD_MARK), sheet.documents.length, first.pages);
  return renderPrintHtml(layout, sheet, { recordPages });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function printJobHandler(deps: PrintDeps): JobHandler {
  return {
    async run(ctx) {
      const { taskId } = ctx.payload as { taskId: string };
      const edb = engineDb(ctx.db, ctx.engineCode);
      const task = await findPrintTask(edb, taskId);
      if (!task) throw new AppError('PrintTaskNotFound');
      await ctx.reportProgress(1, 'Print');
      const owner = await ownerContext(edb, ctx, task.created_by);
      const form = await getRuntimeFormOrThrow(edb, owner, task.schema_code);
      // The rights as they are when the job runs: a print right taken away meanwhile stops it.
      assertCan(form.rights, 'print');
      const selection = task.selection as PrintSelection;

      await ctx.reportProgress(3, 'LoadData');
      const ids = await selectedIds(owner, form, selection);
      if (!ids.length) throw new AppError('PrintNothingToPrint');
      await edb.updateTable('print_tasks').set({ total: ids.length }).where('id', '=', taskId).execute();
      const excel = selection.excelTemplateId ? await findExcelTemplate(owner, selection.excelTemplateId, form.node.code) : undefined;
      const layout = excel ? EXCEL_LAYOUT : (await layoutFor(edb, form, task.template_id)).layout;
      const names = await loadNames(edb);

      const documents = [];
      for (let i = 0; i < ids.length; i += CHUNK) {
        documents.push(...(await assembleDocuments(owner, form, layout, ids.slice(i, i + CHUNK), names, selection.baseUrl)));
        await ctx.reportProgress(5 + ((i + CHUNK) / ids.length) * 55, 'AssembleData');
        if (deps.chunkDelayMs) await pause(deps.chunkDelayMs);
      }
      await inlineImages(edb, deps.store, documents);
      const sheet = sheetOf(form, documents);
      await ctx.reportProgress(62, 'CalcPage');
      const html = excel ? await excelPrintHtml(excel, documents) : await numberedHtml(deps.pdf, layout, sheet);
      const { pdf, pages } = await deps.pdf.render(html, () => ctx.reportProgress(80, 'GenerateFile'));

      const fileId = newId();
      const key = storageKeyOf(ctx.engineCode, fileId);
      await deps.store.put(key, Readable.from(pdf), { maxBytes: pdf.length + 1 });
      await ctx.db.transaction().execute(async (trx) => {
        // Only the job's current holder records the file (a swept or retried attempt does not).
        await ctx.assertOwned(trx as unknown as Db);
        const tedb = engineDb(trx as unknown as Db, ctx.engineCode);
        await insertFile(tedb, { id: fileId, scene: 'attachment', name: `${form.definition.attributes.displayName}.pdf`, size: pdf.length, content_type: PDF_TYPE, storage_key: key, created_by: task.created_by });
        await tedb
          .updateTable('print_tasks')
          .set({ file_id: fileId, pages, expires_at: sql<Date>`now() + ${`${deps.keepHours} hours`}::interval` })
          .where('id', '=', taskId)
          .execute();
      });
      return { total: documents.length, pages };
    },
  };
}
