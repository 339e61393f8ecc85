import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';
import { downloadSigned, startDownload } from '../../../lib/signed-download.ts';
import { uploadFile } from '../../form-runtime/api/upload.ts';

// Excel import and export (docs/decisions/0020): upload, preview, tasks, their states and downloads.

export type PortTask = contracts.DataPortTaskDto;
export type PortColumn = contracts.DataPortColumn;
export type ImportPreview = contracts.ImportPreviewResult;
export type ImportType = 'Upsert' | 'InsertOnly' | 'UpdateOnly';
export type ImportDataState = 'Draft' | 'Effective' | 'Processing';

export interface ImportInput {
  schemaCode: string;
  fileId: string;
  importType: ImportType;
  dataState: ImportDataState;
  keyField?: string;
  mapping: { column: string; field: string }[];
}

/** Background task states that end a task (domain.md §4). */
export const FINAL_STATES = new Set(['Finished', 'Failed', 'Canceled', 'Timeout']);

export const dataPortKeys = {
  tasks: (schemaCode: string) => ['data-port', 'tasks', schemaCode] as const,
  task: (taskId: string) => ['data-port', 'task', taskId] as const,
  columns: (schemaCode: string, viewCode?: string) => ['data-port', 'columns', schemaCode, viewCode ?? ''] as const,
  history: (query: TaskQuery) => ['data-port', 'history', query] as const,
};

/** What the history page asks LoadTaskRecords for (calls.md §9: 72 hours, page 1, 20 a page by default). */
export interface TaskQuery {
  Type?: 'Import' | 'Export';
  SchemaCode?: string;
  RecentHours?: number;
  PageIndex?: number;
  PageSize?: number;
}

/** An export within a list view: the view's code, the person's filter and quick search of the moment. */
export interface ExportScope {
  viewCode?: string;
  filter?: contracts.AddExportTaskBody['filter'];
  keyword?: string;
}

export const dataPortApi = {
  upload: (file: File) => uploadFile(file, 'gridImportFile'),
  preview: (schemaCode: string, fileId: string) => apiClient.post<ImportPreview>('/v1/dataImport/preview', { schemaCode, fileId }),
  addImport: (input: ImportInput) => apiClient.post<{ taskId: string }>('/v1/dataImport/addImportTask', input),
  addExport: (schemaCode: string, columns?: string[], scope: ExportScope = {}) =>
    apiClient.post<{ taskId: string }>('/v1/dataExport/addExportTask', {
      schemaCode,
      ...(columns ? { columns } : {}),
      ...(scope.viewCode ? { viewCode: scope.viewCode } : {}),
      ...(scope.filter ? { filter: scope.filter } : {}),
      ...(scope.keyword ? { keyword: scope.keyword } : {}),
    }),
  columns: (schemaCode: string, viewCode?: string) =>
    apiClient.get<{ columns: PortColumn[]; viewCode?: string | null }>(`/v2/dataPort/getExportColumns/${encodeURIComponent(schemaCode)}/${encodeURIComponent(viewCode || 'default')}`),
  tasks: (body: TaskQuery & { TaskIds?: string[] }) => apiClient.post<{ list: PortTask[]; total: number }>('/v1/dataPort/LoadTaskRecords', body),
  async task(taskId: string): Promise<PortTask | undefined> {
    return (await dataPortApi.tasks({ TaskIds: [taskId] })).list[0];
  },
  cancel: (task: Pick<PortTask, 'type' | 'taskId'>) => apiClient.get<PortTask>(`/v1/dataPort/CancelWaitingTask/${task.type}/${task.taskId}`),
  retry: (taskIds: string[]) => apiClient.post<{ retried: string[] }>('/v1/dataPort/RetryTimeoutTasks', { TaskIds: taskIds }),
  /** Queues the roll back of an ended import (docs/decisions/0031). */
  rollback: (taskId: string) => apiClient.post<contracts.RollbackImportResult>('/v1/dataPort/RollbackImportTask', { TaskId: taskId }),
  rollbackReport: (taskId: string) => apiClient.post<contracts.RollbackReportResult>('/v1/dataPort/getRollbackReport', { TaskId: taskId }),
  downloadUrl: (taskId: string, kind: 'Result' | 'ErrorReport') => apiClient.post<{ url: string; fileName: string }>('/v1/dataPort/getDownloadUrl', { taskId, kind }),
};

/** Starts a browser download of a signed link. */

export async function downloadTaskFile(taskId: string, kind: 'Result' | 'ErrorReport'): Promise<void> {
  const { url, fileName } = await dataPortApi.downloadUrl(taskId, kind);
  startDownload(url, fileName);
}

/** The template is answered as bytes to a signed-in call: fetched with the session's headers, saved as a blob. */
export async function downloadTemplate(schemaCode: string, fileName: string): Promise<void> {
  await downloadSigned(`/v1/dataImport/template/${encodeURIComponent(schemaCode)}`, {}, fileName);
}
