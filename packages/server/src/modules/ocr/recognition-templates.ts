import { contracts } from '@tritium/shared';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordOperation } from '../audit/oplog.ts';
import { canCreateApp } from '../function-node/function-node.policy.ts';
import { viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { BUILTIN_TEMPLATES, builtinTemplate } from './builtin-templates.ts';
import { templateProblems } from './template-rules.ts';

// Recognition templates (docs/decisions/0125; /v1/toolkit/ai/recognition/template): the built-in ones, read-only and
// always listed first, and the engine's own (table recognition_templates), which its administrators and app creators
// create, change and remove. Every member may read them (the OCR control's designer and runtime need them). Changes
// go to the operation log under the OCR plugin.

type Row = { template_code: string; name: string; description: string; mode: 'rules' | 'model'; fields: unknown; modified_time: Date };

const fieldsOf = (raw: unknown): contracts.RecognitionField[] => (typeof raw === 'string' ? JSON.parse(raw) : raw) as contracts.RecognitionField[];

function present(row: Row): contracts.RecognitionTemplateDto {
  return {
    templateCode: row.template_code,
    name: row.name,
    description: row.description,
    mode: row.mode,
    builtIn: false,
    fields: fieldsOf(row.fields),
    modifiedTime: new Date(row.modified_time).toISOString(),
  };
}

const columns = ['template_code', 'name', 'description', 'mode', 'fields', 'modified_time'] as const;

export async function listTemplates(edb: EngineExecutor): Promise<contracts.RecognitionTemplateList> {
  const rows = await edb.selectFrom('recognition_templates').select(columns).orderBy('created_time').orderBy('template_code').execute();
  return { items: [...BUILTIN_TEMPLATES, ...rows.map(present)] };
}

/** One template, built-in or the engine's own; another engine's code is simply unknown here. */
export async function getTemplate(edb: EngineExecutor, templateCode: string): Promise<contracts.RecognitionTemplateDto> {
  const builtIn = builtinTemplate(templateCode);
  if (builtIn) return builtIn;
  const row = await edb.selectFrom('recognition_templates').select(columns).where('template_code', '=', templateCode).executeTakeFirst();
  if (!row) throw new AppError('OcrTemplateNotFound', { detail: { templateCode } });
  return present(row);
}

async function assertManager(edb: EngineExecutor, ctx: NodeContext): Promise<void> {
  if (!canCreateApp(await viewerOf(edb, ctx))) throw new AppError('OcrTemplateForbidden');
}

function checkContent(body: contracts.RecognitionTemplateCreateBody): void {
  const problem = templateProblems(body.fields);
  if (problem) throw new AppError('OcrTemplateInvalid', { detail: problem });
}

const audit = (edb: EngineExecutor, ctx: NodeContext, action: 'create' | 'update' | 'remove', code: string, name: string, before?: unknown, after?: unknown) =>
  recordOperation(edb, ctx, { kind: 'plugin', action, objectId: `ocr:template:${code}`, objectName: name, before, after });

export async function createTemplate(edb: EngineExecutor, ctx: NodeContext, body: contracts.RecognitionTemplateCreateBody): Promise<contracts.RecognitionTemplateDto> {
  await assertManager(edb, ctx);
  if (builtinTemplate(body.templateCode)) throw new AppError('OcrTemplateCodeTaken', { detail: { templateCode: body.templateCode } });
  checkContent(body);
  const { count } = await edb.selectFrom('recognition_templates').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  if (Number(count) >= contracts.OCR_BOUNDS.templates) throw new AppError('OcrTemplateLimit', { detail: { max: contracts.OCR_BOUNDS.templates } });
  const inserted = await edb
    .insertInto('recognition_templates')
    .values({ template_code: body.templateCode, name: body.name, description: body.description, mode: body.mode, fields: JSON.stringify(body.fields), created_by: ctx.userId, modified_by: ctx.userId })
    .onConflict((oc) => oc.column('template_code').doNothing())
    .returning(columns)
    .executeTakeFirst();
  if (!inserted) throw new AppError('OcrTemplateCodeTaken', { detail: { templateCode: body.templateCode } });
  const dto = present(inserted);
  await audit(edb, ctx, 'create', dto.templateCode, dto.name, undefined, dto);
  return dto;
}

export async function updateTemplate(edb: EngineExecutor, ctx: NodeContext, body: contracts.RecognitionTemplateUpdateBody): Promise<contracts.RecognitionTemplateDto> {
  await assertManager(edb, ctx);
  const builtIn = builtinTemplate(body.templateCode);
  if (builtIn) throw new AppError('OcrTemplateBuiltIn', { detail: { name: builtIn.name } });
  checkContent(body);
  const before = await getTemplate(edb, body.templateCode);
  const row = await edb
    .updateTable('recognition_templates')
    .set({ name: body.name, description: body.description, mode: body.mode, fields: JSON.stringify(body.fields), modified_by: ctx.userId, modified_time: new Date() })
    .where('template_code', '=', body.templateCode)
    .returning(columns)
    .executeTakeFirst();
  if (!row) throw new AppError('OcrTemplateNotFound', { detail: { templateCode: body.templateCode } });
  const dto = present(row);
  await audit(edb, ctx, 'update', dto.templateCode, dto.name, before, dto);
  return dto;
}

export async function deleteTemplate(edb: EngineExecutor, ctx: NodeContext, templateCode: string): Promise<void> {
  await assertManager(edb, ctx);
  const builtIn = builtinTemplate(templateCode);
  if (builtIn) throw new AppError('OcrTemplateBuiltIn', { detail: { name: builtIn.name } });
  const before = await getTemplate(edb, templateCode);
  await edb.deleteFrom('recognition_templates').where('template_code', '=', templateCode).execute();
  await audit(edb, ctx, 'remove', templateCode, before.name, before, undefined);
}
