import type { contracts } from '@tritium/shared';

/** The template choice that prints the form's own layout (contracts.FORM_LAYOUT; kept here so the page imports no zod). */
export const FORM_LAYOUT = 'formLayout';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

// Print templates and print jobs (issue 24; docs/decisions/0050): the calls of packages/shared/src/contracts/print.

export type PrintHeader = contracts.PrintHeaderResult;
export type PrintTemplateDto = contracts.PrintTemplateDto;
export type PrintProgress = contracts.PrintProgressResult;
export type PrintData = contracts.PrintDataResult;
export type PrintPaperBody = contracts.PrintPaperBody;

export const printKeys = {
  header: (schemaCode: string) => ['print', 'header', schemaCode] as const,
  actions: (schemaCode: string) => ['print', 'actions', schemaCode] as const,
  template: (templateId: string) => ['print', 'template', templateId] as const,
  data: (schemaCode: string, objectIds: readonly string[], templateId: string | undefined) => ['print', 'data', schemaCode, templateId ?? '', ...objectIds] as const,
};

export const printApi = {
  header: (schemaCode: string) => apiClient.get<PrintHeader>(`/v1/print/header?schemaCode=${encodeURIComponent(schemaCode)}`),
  actions: (schemaCode: string) => apiClient.get<contracts.PrintActionsResult>(`/v1/print/actions?schemaCode=${encodeURIComponent(schemaCode)}`),
  template: (templateId: string) => apiClient.get<PrintTemplateDto>(`/v1/toolkit/print/template?templateId=${encodeURIComponent(templateId)}`),
  // The designer shows refusals (777 details) itself.
  save: (body: z.input<typeof contracts.SavePrintTemplateBody>) => apiClient.post<PrintTemplateDto>('/v1/toolkit/print/template/save', body, { disableBizError: true }),
  remove: (templateId: string) => apiClient.post<unknown>('/v1/toolkit/print/template/remove', { templateId }),
  data: (schemaCode: string, objectIds: readonly string[], templateId?: string) => apiClient.post<PrintData>('/v1/toolkit/print/data', { schemaCode, objectIds, ...(templateId ? { templateId } : {}) }),
  paper: (body: PrintPaperBody) => apiClient.post<z.infer<typeof contracts.PrintPaperResult>>('/v1/toolkit/print/paper', body),
  progress: (taskId: string) => apiClient.post<PrintProgress>('/v1/toolkit/print/progress', { taskId }),
  retry: (taskId: string) => apiClient.post<PrintProgress>('/v1/toolkit/print/retry', { taskId }),
};
