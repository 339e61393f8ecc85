import { sql } from 'kysely';
import type { z } from 'zod';
import { contracts } from '@tritium/shared';
import { PRINT_LIMITS } from '@tritium/shared/constants/limits';
import { defaultLayoutOf, fieldsOfElement, PrintLayout, type PrintLayout as Layout } from '@tritium/shared/print/index';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { visibleFields, visibleGrids } from '../business-data/record.presenter.ts';
import { assertCan, can } from '../permission/form-rights.ts';
import { countTemplates, defaultTemplate, findTemplate, templatesOfForm, type PrintTemplateRow } from './print-templates.repo.ts';

// Print templates of a form (issue 24; docs/decisions/0050). Printing, and reading the templates to print with,
// needs the form's print right (the policy module); designing them is for the administrators of the form's app.

type Out<T extends z.ZodType> = z.output<T>;

/** The system fields a template may print besides the form's own. */
export const PRINT_SYSTEM_FIELDS: Record<string, string> = {
  Name: '数据标题', SeqNo: '单据号', Status: '数据状态', CreatedBy: '创建人', OwnerId: '拥有者', OwnerDeptId: '所属部门', CreatedTime: '创建时间', ModifiedTime: '修改时间',
};

const labelOf = (options: Record<string, unknown>, code: string) => String(options.displayName ?? code);

function summary(row: PrintTemplateRow): contracts.PrintTemplateSummary {
  const layout = row.layout as Layout;
  const page = layout.page;
  return {
    templateId: row.id,
    schemaCode: row.schema_code,
    name: row.name,
    isDefault: row.is_default,
    paper: page.size === 'custom' ? `${page.width}×${page.height} mm` : page.size,
    orientation: page.orientation,
    modifiedTime: new Date(row.modified_time).toISOString(),
  };
}

const present = (row: PrintTemplateRow): contracts.PrintTemplateDto => ({ ...summary(row), layout: PrintLayout.parse(row.layout), version: row.version });

/** The form as the caller prints it: the print right is required. */
export async function printableForm(ctx: NodeContext, schemaCode: string): Promise<RuntimeForm> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  assertCan(form.rights, 'print');
  return form;
}

function assertDesigner(form: RuntimeForm): void {
  if (!form.isAppAdmin) throw new AppError('FunctionNodeForbidden');
}

/** GET /v1/print/header */
export async function printHeader(ctx: NodeContext, schemaCode: string): Promise<contracts.PrintHeaderResult> {
  const form = await printableForm(ctx, schemaCode);
  const rows = await templatesOfForm(engineOf(ctx), form.node.code);
  return {
    schemaCode: form.node.code,
    title: form.definition.attributes.displayName,
    templates: rows.map(summary),
    fields: [
      ...visibleFields(form).map((f) => ({ code: f.code, label: labelOf(f.options, f.code), kind: 'field' as const })),
      ...Object.entries(PRINT_SYSTEM_FIELDS).map(([code, label]) => ({ code, label, kind: 'system' as const })),
      ...visibleGrids(form).map((g) => ({ code: g.code, label: labelOf(g.options, g.code), kind: 'subTable' as const, columns: g.fields.map((f) => ({ code: f.code, label: labelOf(f.options, f.code) })) })),
    ],
    isWorkflow: form.isWorkflow,
    limits: { maxTemplates: PRINT_LIMITS.maxTemplates, maxQrCodes: PRINT_LIMITS.maxQrCodes, maxBatch: contracts.PRINT_BATCH_MAX },
  };
}

/** GET /v1/print/actions: what the caller may do with printing on this form (no print right: nothing). */
export async function printActions(ctx: NodeContext, schemaCode: string): Promise<contracts.PrintActionsResult> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const actions: (typeof contracts.PRINT_ACTIONS)[number][] = [];
  if (can(form.rights, 'print')) actions.push('Browser', 'Pdf');
  if (form.isAppAdmin) actions.push('Design');
  return { actions };
}

/** GET /v1/toolkit/print/template */
export async function getTemplate(ctx: NodeContext, templateId: string): Promise<contracts.PrintTemplateDto> {
  const row = await findTemplate(engineOf(ctx), templateId);
  if (!row) throw new AppError('PrintTemplateNotFound');
  await printableForm(ctx, row.schema_code).catch((error) => {
    // A template of a form the caller cannot print is no template for them.
    if (error instanceof AppError) throw new AppError('PrintTemplateNotFound');
    throw error;
  });
  return present(row);
}

/** Every field code the form offers a template: main fields, system fields, sub-tables. */
function knownFields(form: RuntimeForm): Set<string> {
  return new Set([...form.fields.map((f) => f.code), ...form.grids.map((g) => g.code), ...Object.keys(PRINT_SYSTEM_FIELDS)]);
}

function assertFieldsOf(form: RuntimeForm, layout: Layout): void {
  const known = knownFields(form);
  for (const element of layout.elements) {
    for (const field of fieldsOfElement(element)) {
      if (!known.has(field)) throw new AppError('PrintTemplateFieldUnknown', { detail: { field, elementId: element.id } });
    }
    if (element.type === 'subTable') {
      const grid = form.grids.find((g) => g.code === element.field);
      if (!grid) throw new AppError('PrintTemplateFieldUnknown', { detail: { field: element.field } });
      for (const c of element.columns) {
        if (!grid.fields.some((f) => f.code === c.field)) throw new AppError('PrintTemplateFieldUnknown', { detail: { field: `${grid.code}.${c.field}` } });
      }
    }
  }
}

/** POST /v1/toolkit/print/template/save: a new template (at most 100 a form) or a change; one default a form. */
export async function saveTemplate(ctx: NodeContext, body: Out<typeof contracts.SavePrintTemplateBody>): Promise<contracts.PrintTemplateDto> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  assertDesigner(form);
  assertFieldsOf(form, body.layout);
  return ctx.db.transaction().execute(async (trx) => {
    const edb = engineOf({ db: trx as never, engineCode: ctx.engineCode });
    // One writer of a form's templates at a time: the count and the name check hold until commit.
    await sql`select pg_advisory_xact_lock(hashtext(${`print:${ctx.engineCode}:${form.node.code}`}))`.execute(edb);
    const clash = await edb.selectFrom('print_templates').select('id').where('schema_code', '=', form.node.code).where('name', '=', body.name).executeTakeFirst();
    if (clash && clash.id !== body.templateId) throw new AppError('PrintTemplateNameTaken');
    if (body.isDefault) await edb.updateTable('print_templates').set({ is_default: false }).where('schema_code', '=', form.node.code).execute();
    const layout = JSON.stringify(body.layout);
    if (body.templateId) {
      const existing = await findTemplate(edb, body.templateId);
      if (!existing || existing.schema_code !== form.node.code) throw new AppError('PrintTemplateNotFound');
      const row = await edb
        .updateTable('print_templates')
        .set({ name: body.name, is_default: body.isDefault, layout, version: sql`version + 1`, modified_time: sql`now()` })
        .where('id', '=', body.templateId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return present(row);
    }
    if ((await countTemplates(edb, form.node.code)) >= PRINT_LIMITS.maxTemplates) {
      throw new AppError('PrintTemplateLimit', { detail: { max: PRINT_LIMITS.maxTemplates } });
    }
    const row = await edb
      .insertInto('print_templates')
      .values({ id: newId(), schema_code: form.node.code, name: body.name, is_default: body.isDefault, layout, created_by: ctx.userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    return present(row);
  });
}

/** POST /v1/toolkit/print/template/remove */
export async function removeTemplate(ctx: NodeContext, templateId: string): Promise<{ templateId: string }> {
  const edb = engineOf(ctx);
  const row = await findTemplate(edb, templateId);
  if (!row) throw new AppError('PrintTemplateNotFound');
  assertDesigner(await getRuntimeFormOrThrow(edb, ctx, row.schema_code));
  await edb.deleteFrom('print_templates').where('id', '=', templateId).execute();
  return { templateId };
}

/** The layout a print uses: the template asked for (of this form), else the form's default one, else its own layout. */
export async function layoutFor(edb: EngineExecutor, form: RuntimeForm, templateId: string | null | undefined): Promise<{ templateId: string | null; layout: Layout }> {
  const asked = templateId === contracts.FORM_LAYOUT ? null : templateId;
  const row = asked ? await findTemplate(edb, asked) : templateId === contracts.FORM_LAYOUT ? undefined : await defaultTemplate(edb, form.node.code);
  if (asked && (!row || row.schema_code !== form.node.code)) throw new AppError('PrintTemplateNotFound');
  if (row) return { templateId: row.id, layout: PrintLayout.parse(row.layout) };
  return {
    templateId: null,
    layout: defaultLayoutOf({ title: form.definition.attributes.displayName, fields: visibleFields(form).map((f) => f.code), grids: visibleGrids(form).map((g) => g.code), isWorkflow: form.isWorkflow }),
  };
}
