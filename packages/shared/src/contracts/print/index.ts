import { z } from 'zod';
import { PRINT_STATES } from '../../constants/tasks.ts';
import { PRINT_LIMITS } from '../../constants/limits.ts';
import { SchemaCode } from '../form-design/index.ts';
import { FilterNode } from '../../query/filter.ts';
import { PrintLayout } from '../../print/template.ts';

// Print templates and print jobs (calls.md §7 "Print": POST /v1/toolkit/print/paper and /progress, GET /v1/print/header
// and /actions; issue 24; docs/decisions/0050). The spec names the paths; the payloads are ours.

export const PrintTemplateId = z.uuid({ error: '须为有效的 id' });
export const PrintTaskId = z.uuid({ error: '须为有效的 id' });
/** Records one print job takes at most (a selection or a filtered view); one PDF. */
export const PRINT_BATCH_MAX = 2000;
/** Records the browser's Print mode renders at once. */
export const PRINT_BROWSER_MAX = 50;
/** The templateId that asks for the form's own layout even when the form has a default template. */
export const FORM_LAYOUT = 'formLayout';
/** A template of the form, or the form's own layout; absent: the default template, else the form's layout. */
const TemplateChoice = z.union([PrintTemplateId, z.literal(FORM_LAYOUT)]).optional();

export const PrintTemplateSummary = z.object({
  templateId: z.string(),
  schemaCode: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  /** Paper as shown in the list: A4 / A5 / 210×99 mm, and the orientation. */
  paper: z.string(),
  orientation: z.string(),
  modifiedTime: z.string(),
});
export type PrintTemplateSummary = z.infer<typeof PrintTemplateSummary>;

export const PrintTemplateDto = PrintTemplateSummary.extend({ layout: PrintLayout, version: z.number().int() });
export type PrintTemplateDto = z.infer<typeof PrintTemplateDto>;

/** GET /v1/print/header?schemaCode=: what the print dialog of a form opens with — the templates the caller may print with. */
export const PrintHeaderQuery = z.strictObject({ schemaCode: SchemaCode });
export const PrintHeaderResult = z.object({
  schemaCode: z.string(),
  title: z.string(),
  templates: z.array(PrintTemplateSummary),
  /** What a template can print: the form's fields the caller sees, the system fields, sub-tables with their columns. */
  fields: z.array(z.object({ code: z.string(), label: z.string(), kind: z.enum(['field', 'system', 'subTable']), columns: z.array(z.object({ code: z.string(), label: z.string() })).optional() })),
  isWorkflow: z.boolean(),
  limits: z.object({ maxTemplates: z.literal(PRINT_LIMITS.maxTemplates), maxQrCodes: z.literal(PRINT_LIMITS.maxQrCodes), maxBatch: z.number() }),
});
export type PrintHeaderResult = z.infer<typeof PrintHeaderResult>;

/** The print actions of a form: Browser (the Print mode), Pdf (a job for a selection or a view), Design (templates). */
export const PRINT_ACTIONS = ['Browser', 'Pdf', 'Design'] as const;
export const PrintActionsQuery = PrintHeaderQuery;
export const PrintActionsResult = z.object({ actions: z.array(z.enum(PRINT_ACTIONS)) });
export type PrintActionsResult = z.infer<typeof PrintActionsResult>;

/** GET /v1/toolkit/print/template?templateId= */
export const PrintTemplateQuery = z.strictObject({ templateId: PrintTemplateId });

/** POST /v1/toolkit/print/template/save: a new template (no templateId) or a change of one. */
export const SavePrintTemplateBody = z.strictObject({
  schemaCode: SchemaCode,
  templateId: PrintTemplateId.optional(),
  name: z.string().trim().min(1).max(50),
  isDefault: z.boolean().default(false),
  layout: PrintLayout,
});
export type SavePrintTemplateBody = z.input<typeof SavePrintTemplateBody>;

export const RemovePrintTemplateBody = z.strictObject({ templateId: PrintTemplateId });

/** Which records: chosen ones, or every record of a (filtered) list view. */
const PrintSelection = {
  schemaCode: SchemaCode,
  templateId: TemplateChoice,
  /** An Excel template of the form instead: each record's filled workbook, all of them in one PDF. */
  excelTemplateId: PrintTemplateId.optional(),
  objectIds: z.array(z.uuid({ error: '须为有效的 id' })).min(1, '请选择要打印的数据').max(PRINT_BATCH_MAX).optional(),
  filter: FilterNode.optional(),
  viewCode: z.string().trim().max(64).optional(),
  keyword: z.string().trim().max(200).optional(),
  status: z.array(z.number().int().min(0).max(3)).max(4).optional(),
  sort: z.array(z.object({ field: z.string(), direction: z.enum(['asc', 'desc']) })).max(3).optional(),
};

/** POST /v1/toolkit/print/data: a template and records assembled for the browser's Print mode. */
export const PrintDataBody = z.strictObject({
  schemaCode: SchemaCode,
  templateId: TemplateChoice,
  objectIds: z.array(z.uuid({ error: '须为有效的 id' })).min(1, '请选择要打印的数据').max(PRINT_BROWSER_MAX),
});
export const PrintDataResult = z.object({
  templateId: z.string().nullable(),
  layout: PrintLayout,
  sheet: z.object({
    title: z.string(),
    labels: z.record(z.string(), z.string()),
    gridColumns: z.record(z.string(), z.array(z.string())),
    documents: z.array(z.object({
      objectId: z.string(),
      values: z.record(z.string(), z.string()),
      grids: z.record(z.string(), z.object({ rows: z.array(z.record(z.string(), z.string())) })),
      codes: z.record(z.string(), z.string()),
      images: z.record(z.string(), z.string()),
      trace: z.array(z.object({ activity: z.string(), user: z.string(), action: z.string(), opinion: z.string(), time: z.string(), signature: z.string().nullable() })),
    })),
  }),
});
export type PrintDataResult = z.infer<typeof PrintDataResult>;

/** POST /v1/toolkit/print/paper: a print job making one PDF of the selection or of the whole filtered view. */
export const PrintPaperBody = z.strictObject(PrintSelection);
export type PrintPaperBody = z.input<typeof PrintPaperBody>;
export const PrintPaperResult = z.object({ taskId: z.string() });

/** POST /v1/toolkit/print/progress and /retry */
export const PrintProgressBody = z.strictObject({ taskId: PrintTaskId });
export const PrintProgressResult = z.object({
  taskId: z.string(),
  schemaCode: z.string(),
  state: z.enum(PRINT_STATES),
  /** 0–100 */
  progress: z.number(),
  message: z.string().nullable(),
  /** Records in the job (known once LoadData has run) and pages in the file (once CalcPage has). */
  total: z.number().nullable(),
  pages: z.number().nullable(),
  /** An Error job can be queued again. */
  retryable: z.boolean(),
  /** The PDF's link while it is kept (Complete), signed and short-lived. */
  downloadUrl: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type PrintProgressResult = z.infer<typeof PrintProgressResult>;

/** Excel templates (up to 20 a form): a workbook with `{Field}` placeholders; a row with `{Grid.Column}` repeats per sub-table row. */
export const PrintExcelTemplateSummary = z.object({ templateId: z.string(), schemaCode: z.string(), name: z.string(), createdTime: z.string() });
export type PrintExcelTemplateSummary = z.infer<typeof PrintExcelTemplateSummary>;
export const PrintExcelListResult = z.object({ list: z.array(PrintExcelTemplateSummary), max: z.number() });
/** POST /v1/toolkit/print/excel/save: the workbook is uploaded first (/v1/file/upload?scene=gridImportFile). */
export const SavePrintExcelBody = z.strictObject({ schemaCode: SchemaCode, name: z.string().trim().min(1).max(50), fileId: z.uuid({ error: '须为有效的 id' }) });
export const RemovePrintExcelBody = z.strictObject({ templateId: PrintTemplateId });
/** POST /v1/toolkit/print/excel/fill: the template filled with one record, as an .xlsx or a PDF download. */
export const PRINT_EXCEL_FORMATS = ['xlsx', 'pdf'] as const;
export const FillPrintExcelBody = z.strictObject({ templateId: PrintTemplateId, objectId: z.uuid({ error: '须为有效的 id' }), format: z.enum(PRINT_EXCEL_FORMATS).default('xlsx') });
