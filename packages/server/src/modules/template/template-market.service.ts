import type { Readable } from 'node:stream';
import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { presentTemplate, presentTemplateInfo } from './template.presenter.ts';
import { openPicture } from './template-pictures.ts';
import * as repo from './template.repo.ts';
import { templateDb } from './template.tables.ts';
import type { TemplateContext, TemplateDeps } from './template-context.ts';

// The template market's reads (GET /v1/template/list, /info, /picture; docs/decisions/0131). An engine reads the
// built-in and platform templates, its own, and those shared with it; any other id is "not found".

export async function listTemplates(ctx: Pick<TemplateContext, 'engineCode'>, deps: TemplateDeps, query: { category?: string; keyword?: string; source: repo.TemplateSource; pageIndex: number; pageSize: number }): Promise<contracts.TemplateListResult> {
  await deps.builtInsReady();
  const offset = query.pageIndex * query.pageSize;
  const { rows, total, categories } = await repo.listVisible(templateDb(deps.db), {
    engineCode: ctx.engineCode,
    source: query.source,
    category: query.category,
    keyword: query.keyword || undefined,
    offset,
    limit: query.pageSize,
  });
  return { list: rows.map((r) => presentTemplate(r, ctx.engineCode)), total, hasMore: offset + rows.length < total, categories };
}

export async function getVisibleOrThrow(ctx: Pick<TemplateContext, 'engineCode'>, deps: TemplateDeps, templateId: string): Promise<repo.TemplateListRow> {
  await deps.builtInsReady();
  const row = await repo.findVisible(templateDb(deps.db), ctx.engineCode, templateId);
  if (!row) throw new AppError('TemplateNotFound');
  return row;
}

export async function templateInfo(ctx: Pick<TemplateContext, 'engineCode'>, deps: TemplateDeps, templateId: string): Promise<contracts.TemplateInfo> {
  const row = await getVisibleOrThrow(ctx, deps, templateId);
  const shares = row.publisher_engine === ctx.engineCode ? await repo.sharesOf(templateDb(deps.db), row.id) : [];
  return presentTemplateInfo(row, ctx.engineCode, shares);
}

export async function templatePicture(ctx: Pick<TemplateContext, 'engineCode'>, deps: TemplateDeps, templateId: string, index: number): Promise<{ body: Readable; contentType: string }> {
  const row = await getVisibleOrThrow(ctx, deps, templateId);
  return openPicture(deps.store, deps.builtInDir, row.pictures[index]);
}
