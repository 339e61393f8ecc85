import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// The code editor's calls (issue 43; docs/decisions/0118): packages/shared/src/contracts/custom-code.

export type CodePart = contracts.CustomCodePart;
export type CodeLanguage = contracts.CustomCodeLanguage;
export type CodePartDto = contracts.CodePartDto;
export type CodeLoadResult = contracts.CodeLoadResult;
export type CodeDiagnostic = contracts.CodeDiagnostic;
export type CodeVersionDto = contracts.CodeVersionDto;
export type DryRunBody = contracts.DryRunBody;
export type DryRunResult = contracts.DryRunResult;
export type CodeLogItem = contracts.BizLogEntryDto;
export type CodeLogListResult = contracts.BizLogListResult;

/** Which code: a form's (schemaCode) or the app's own (schemaCode undefined). */
export interface CodeOwner {
  appCode: string;
  schemaCode?: string;
}

export const codeKeys = {
  load: (owner: { appCode?: string; schemaCode?: string }) => ['code-editor', 'load', owner.appCode ?? '', owner.schemaCode ?? ''] as const,
  versions: (owner: CodeOwner, part: CodePart) => ['code-editor', 'versions', owner.appCode, owner.schemaCode ?? '', part] as const,
  logs: (query: Record<string, unknown>) => ['code-editor', 'logs', query] as const,
};

const BASE = '/v1/codeeditor';

export const codeEditorApi = {
  // The page shows a missing or forbidden owner itself.
  load: (owner: { appCode?: string; schemaCode?: string }) => apiClient.post<CodeLoadResult>(`${BASE}/load`, owner, { disableBizError: true }),
  // The editor shows a conflict or a compile error next to the code.
  save: (body: contracts.CodeSaveBody) => apiClient.post<contracts.CodeSaveResult>(`${BASE}/save`, body, { disableBizError: true }),
  check: (body: contracts.CodeCheckBody) => apiClient.post<contracts.CodeCheckResult>(`${BASE}/check`, body, { disableBizError: true }),
  versions: (owner: CodeOwner, part: CodePart) => apiClient.post<contracts.CodeVersionsResult>(`${BASE}/versions`, { ...owner, part }),
  version: (owner: CodeOwner, part: CodePart, version: number) => apiClient.post<contracts.CodeVersionResult>(`${BASE}/version`, { ...owner, part, version }),
  rollback: (owner: CodeOwner, part: CodePart, version: number) => apiClient.post<contracts.CodeSaveResult>(`${BASE}/rollback`, { ...owner, part, version }),
  // The panel shows why a dry run could not start.
  /** The form's 20 newest records, to choose one for a dry run. */
  recentRecords: (schemaCode: string) =>
    apiClient.post<{ list: { ObjectId: string; Name?: string | null }[] }>('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 20, sort: [{ field: 'CreatedTime', direction: 'desc' }] }),
  limits: () => apiClient.post<contracts.ScriptLimitsResult>(`${BASE}/limits`, {}),
  saveLimits: (body: contracts.ScriptLimits) => apiClient.post<contracts.ScriptLimitsResult>(`${BASE}/limits/save`, body),
  dryRun: (body: DryRunBody) => apiClient.post<DryRunResult>(`${BASE}/dryrun`, body, { disableBizError: true }),
};

/** GET /v1/toolkit/bizlog/list: the business log's lines, newest first. */
export interface CodeLogQuery {
  appCode?: string;
  schemaCode?: string;
  level?: contracts.BizLogLevel;
  from?: string;
  to?: string;
  text?: string;
  page: number;
  pageSize: number;
}

export const codeLogApi = {
  list: (query: CodeLogQuery) => {
    const params = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
    return apiClient.get<CodeLogListResult>('/v1/toolkit/bizlog/list', { query: params });
  },
};
