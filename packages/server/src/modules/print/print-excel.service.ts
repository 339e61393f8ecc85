import { buffer } from 'node:stream/consumers';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { PRINT_LIMITS } from '@tritium/shared/constants/limits';
import { PrintLayout, type PrintDocument } from '@tritium/shared/print/index';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import type { FileStore } from '../files/file-store.ts';
import { findFiles } from '../files/files.repo.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { assembleDocuments, loadNames, printableIds } from './print-assemble.ts';
import { filledWorkbook, fillWorkbook, isReadableWorkbook } from './print-excel.ts';
import { workbooksHtml } from './print-excel-html.ts';
import type { PdfRenderer } from './print-pdf.ts';
import { printableForm } from './print-templates.service.ts';

// Excel print templates of a form (issue 24; docs/decisions/0050): the app's administrators upload them (at most 20
// a form); whoever has the form's print right fills one with a record they may read and downloads the workbook.

type Out<T extends z.ZodType> = z.output<T>;
const MAX_BYTES = 5 * 1024 * 1024;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const PDF_TYPE = 'application/pdf';

const summary = (r: { id: string; schema_code: string; name: string; created_time: Date | string }): contracts.PrintExcelTemplateSummary => ({
  templateId: r.id, schemaCode: r.schema_code, name: r.name, createdTime: new Date(r.created_time).toISOString(),
});

/** GET /v1/toolkit/print/excel/list */
export async function listExcel(ctx: NodeContext, schemaCode: string) {
  const form = await printableForm(ctx, schemaCode);
  const rows = await engineOf(ctx).selectFrom('print_excel_templates').select(['id', 'schema_code', 'name', 'created_time']).where('schema_code', '=', form.node.code).orderBy('created_time').execute();
  return { list: rows.map(summary), max: PRINT_LIMITS.maxExcelTemplates };
}

/** POST /v1/toolkit/print/excel/save: the caller's uploaded workbook becomes a template of the form. */
export async function saveExcel(ctx: NodeContext, store: FileStore, body: Out<typeof contracts.SavePrintExcelBody>): Promise<contracts.PrintExcelTemplateSummary> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  if (!form.isAppAdmin) throw new AppError('FunctionNodeForbidden');
  const [file] = await findFiles(engineOf(ctx), [body.fileId]);
  if (!file || file.created_by !== ctx.userId) throw new AppError('FileNotFound', { detail: { fileId: body.fileId } });
  const stream = Number(file.size) <= MAX_BYTES ? await store.get(file.storage_key) : undefined;
  const bytes = stream ? await buffer(stream) : undefined;
  if (!bytes || !(await isReadableWorkbook(bytes))) throw new AppError('PrintExcelFileUnreadable');
  return ctx.db.transaction().execute(async (trx) => {
    const edb = engineOf({ db: trx as never, engineCode: ctx.engineCode });
    await sql`select pg_advisory_xact_lock(hashtext(${`print-excel:${ctx.engineCode}:${form.node.code}`}))`.execute(edb);
    const taken = await edb.selectFrom('print_excel_templates').select(['id', 'name']).where('schema_code', '=', form.node.code).execute();
    if (taken.some((r) => r.name === body.name)) throw new AppError('PrintTemplateNameTaken');
    if (taken.length >= PRINT_LIMITS.maxExcelTemplates) throw new AppError('PrintExcelTemplateLimit', { detail: { max: PRINT_LIMITS.maxExcelTemplates } });
    const row = await edb
      .insertInto('print_excel_templates')
      .values({ id: newId(), schema_code: form.node.code, name: body.name, workbook: bytes, created_by: ctx.userId })
      .returning(['id', 'schema_code', 'name', 'created_time'])
      .executeTakeFirstOrThrow();
    return summary(row);
  });
}

/** POST /v1/toolkit/print/excel/remove */
export async function removeExcel(ctx: NodeContext, templateId: string) {
  const edb = engineOf(ctx);
  const row = await edb.selectFrom('print_excel_templates').select('schema_code').where('id', '=', templateId).executeTakeFirst();
  if (!row) throw new AppError('PrintExcelTemplateNotFound');
  if (!(await getRuntimeFormOrThrow(edb, ctx, row.schema_code)).isAppAdmin) throw new AppError('FunctionNodeForbidden');
  await edb.deleteFrom('print_excel_templates').where('id', '=', templateId).execute();
  return { templateId };
}

/** An Excel template by id, of `schemaCode` when given (390011 otherwise). */
export async function findExcelTemplate(ctx: NodeContext, templateId: string, schemaCode?: string) {
  const template = await engineOf(ctx).selectFrom('print_excel_templates').selectAll().where('id', '=', templateId).executeTakeFirst();
  if (!template || (schemaCode && template.schema_code !== schemaCode)) throw new AppError('PrintExcelTemplateNotFound');
  return template;
}

/** An empty layout: the records' texts and sub-table rows are assembled, no codes or trace. */
export const EXCEL_LAYOUT = PrintLayout.parse({ elements: [] });

/** Filled workbooks of `docs` as one HTML document for the PDF (docs/decisions/0066). */
export async function excelPrintHtml(template: { workbook: Uint8Array; name: string }, docs: readonly PrintDocument[]): Promise<string> {
  const bytes = Buffer.from(template.workbook);
  const books = [];
  for (const doc of docs) books.push(await filledWorkbook(bytes, doc));
  return workbooksHtml(books, template.name);
}

/** POST /v1/toolkit/print/excel/fill: the workbook filled with a record the caller may read (texts under their rights), as .xlsx or PDF. */
export async function fillExcel(ctx: NodeContext, pdf: PdfRenderer, body: Out<typeof contracts.FillPrintExcelBody>, baseUrl: string): Promise<{ name: string; body: Buffer; type: string }> {
  const edb = engineOf(ctx);
  const template = await findExcelTemplate(ctx, body.templateId);
  const form = await printableForm(ctx, template.schema_code);
  const ids = await printableIds(edb, form, [body.objectId], ctx.userId);
  if (!ids.length) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
  const [doc] = await assembleDocuments(ctx, form, EXCEL_LAYOUT, ids, await loadNames(edb), baseUrl);
  if (body.format === 'pdf') return { name: `${template.name}.pdf`, type: PDF_TYPE, body: (await pdf.render(await excelPrintHtml(template, [doc!]))).pdf };
  return { name: `${template.name}.xlsx`, type: XLSX_TYPE, body: await fillWorkbook(Buffer.from(template.workbook), doc!) };
}
