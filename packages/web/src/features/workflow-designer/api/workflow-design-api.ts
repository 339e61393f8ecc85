import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { getEngineCode } from '../../../lib/session.ts';
import { loadFormSchema, type PublishedForm } from '../../form-schema/load-form-schema.ts';
import type { Template, TemplateIssue } from '../model/template-model.ts';

export type TemplateLoadResult = z.infer<typeof contracts.WfTemplateLoadResult>;
export type TemplateSaveResult = z.infer<typeof contracts.WfTemplateSaveResult>;
export type DryRunResult = contracts.WfDryRunResult;
export type DryRunStep = contracts.WfDryRunStep;
export type OrgInfoByIds = z.infer<typeof contracts.OrgInfoByIdsResult>;
export type BizQueryResult = contracts.BizQueryResult;

export const workflowDesignKeys = {
  load: (schemaCode: string) => ['workflow-design', 'load', schemaCode] as const,
  form: (schemaCode: string) => ['workflow-design', 'form', schemaCode] as const,
  records: (schemaCode: string) => ['workflow-design', 'records', schemaCode] as const,
  // Organisation reads start with 'org' so the admin console's changes refresh them.
  names: (ids: string[]) => ['org', 'workflow-design', 'names', ids] as const,
};

const BASE = '/v1/workflow/template';

export const workflowDesignApi = {
  // The page shows a missing or forbidden form itself (a result page rather than a toast).
  load: (schemaCode: string) => apiClient.get<TemplateLoadResult>(`${BASE}/load`, { query: { schemaCode }, disableBizError: true }),
  save: (schemaCode: string, template: Template) => apiClient.post<TemplateSaveResult>(`${BASE}/save`, { schemaCode, template }),
  // A refusal listing the design's issues is shown on the nodes, not as a toast.
  publish: (schemaCode: string) => apiClient.post<z.infer<typeof contracts.WfTemplatePublishResult>>(`${BASE}/publish`, { schemaCode }, { disableBizError: true }),
  dryRun: (body: contracts.WfDryRunBody) => apiClient.post<DryRunResult>(`${BASE}/dryrun`, body),
  form: (schemaCode: string): Promise<PublishedForm> => loadFormSchema(getEngineCode() ?? '', schemaCode),
  /** The latest records of the form, as samples for the dry run. */
  records: (schemaCode: string) => apiClient.post<BizQueryResult>('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 20, sort: [{ field: 'CreatedTime', direction: 'desc' }] }),
  names: (ids: string[]) => apiClient.post<OrgInfoByIds>('/v1/org/info/byids', { ids }),
};

/** The issues of a publish refused with 280002 (detail.issues), or undefined for any other error. */
export function refusedIssues(error: unknown): TemplateIssue[] | undefined {
  if (!isApiError(error)) return undefined;
  const issues = (error.detail as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues) ? (issues as TemplateIssue[]) : undefined;
}
