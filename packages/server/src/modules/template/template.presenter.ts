import type { contracts } from '@tritium/shared';
import type { TemplateListRow } from './template.repo.ts';

// Rows to the answers of /v1/template/* (docs/decisions/0131).

/** What publishing keeps of the package: the package layer's summary plus each form's name and sample count. */
export interface StoredSummary {
  formCount?: number;
  sampleRecordCount?: number;
  forms?: { name: string; sampleCount: number }[];
}

const summaryOf = (row: TemplateListRow): StoredSummary => (row.package_summary ?? {}) as StoredSummary;

export function presentTemplate(row: TemplateListRow, engineCode: string): contracts.TemplateDto {
  const summary = summaryOf(row);
  return {
    id: row.id,
    code: row.code,
    scope: row.scope,
    builtIn: row.built_in,
    name: row.name,
    category: row.category,
    summary: row.summary,
    icon: row.icon,
    iconColor: row.icon_color,
    formCount: Number(summary.formCount ?? summary.forms?.length ?? 0),
    sampleCount: Number(summary.sampleRecordCount ?? 0),
    version: row.version,
    installCount: row.install_count,
    publishedTime: new Date(row.published_time).toISOString(),
    publisherName: row.built_in ? null : row.publisher_name,
    isMine: row.publisher_engine === engineCode,
    isSharedToMe: row.publisher_engine !== engineCode && !!row.shared_to_me,
    pictureCount: row.pictures.length,
  };
}

export function presentTemplateInfo(row: TemplateListRow, engineCode: string, sharedWith: { engineCode: string; engineName: string }[]): contracts.TemplateInfo {
  return {
    ...presentTemplate(row, engineCode),
    description: row.description,
    pictures: row.pictures.map((_, index) => `/v1/template/picture?templateId=${encodeURIComponent(row.id)}&index=${index}`),
    forms: (summaryOf(row).forms ?? []).map((f) => ({ name: String(f.name), sampleCount: Number(f.sampleCount) || 0 })),
    sharedWith: row.publisher_engine === engineCode ? sharedWith : [],
  };
}
