import { z } from 'zod';
import { BACKGROUND_TASK_STATES, EXPORT_STATES, IMPORT_DATA_STATES, IMPORT_TYPES } from '../../constants/tasks.ts';
import { SchemaCode } from '../form-design/index.ts';
import { FilterNode } from '../../query/filter.ts';

// Excel import and export as background tasks (calls.md §7 "Import and export"; docs/decisions/0020). The spec
// names the calls and LoadTaskRecords' parameters (PascalCase, kept); every other payload is ours.

export const DATA_PORT_TASK_TYPES = ['Import', 'Export'] as const;
export const DataPortTaskType = z.enum(DATA_PORT_TASK_TYPES, { error: '任务类型须为 Import 或 Export' });
export type DataPortTaskType = z.infer<typeof DataPortTaskType>;
export const ImportTypeSchema = z.enum(IMPORT_TYPES, { error: '导入方式须为 Upsert、InsertOnly 或 UpdateOnly' });
export const ImportDataStateSchema = z.enum(IMPORT_DATA_STATES, { error: '数据状态须为 Draft、Effective 或 Processing' });
export const TaskId = z.uuid({ error: '无效的任务 id' });

/** Most columns of one import or export (a form's fields and its sub-tables' columns). */
export const DATA_PORT_MAX_COLUMNS = 500;

/** One column of the file → one field: a main-table control code or `<grid>.<column>`. */
export const ImportMapping = z.object({ column: z.string().trim().min(1).max(200), field: z.string().trim().min(1).max(130) });

/** POST /v1/dataImport/preview: the file's header and first rows, and the mapping the server suggests. */
export const ImportPreviewBody = z.strictObject({ schemaCode: SchemaCode, fileId: z.uuid({ error: '无效的文件 id' }) });
export const ImportPreviewResult = z.object({
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  mapping: z.array(ImportMapping),
});
export type ImportPreviewResult = z.infer<typeof ImportPreviewResult>;

/** POST /v1/dataImport/addImportTask */
export const AddImportTaskBody = z
  .strictObject({
    schemaCode: SchemaCode,
    fileId: z.uuid({ error: '无效的文件 id' }),
    importType: ImportTypeSchema.default('InsertOnly'),
    /** Absent: Effective, or Draft for a workflow form without a published flow (docs/decisions/0020). */
    dataState: ImportDataStateSchema.optional(),
    /** The field matching file rows to records (Upsert, UpdateOnly): a main-table control code, ObjectId or SeqNo. */
    keyField: z.string().trim().min(1).max(64).optional(),
    /** Absent: columns are matched by their header (a field's name or code). */
    mapping: z.array(ImportMapping).max(DATA_PORT_MAX_COLUMNS).optional(),
  })
  .refine((b) => b.importType === 'InsertOnly' || !!b.keyField, { path: ['keyField'], error: '更新数据时须选择匹配字段' });
export type AddImportTaskBody = z.input<typeof AddImportTaskBody>;

/** POST /v1/dataExport/addExportTask: the query engine's filter model, columns and sort, optionally within a list view. */
export const AddExportTaskBody = z.strictObject({
  schemaCode: SchemaCode,
  filter: FilterNode.optional(),
  status: z.array(z.number().int().min(0).max(3)).max(4).optional(),
  /** Field codes, system fields or `<grid>.<column>`; absent = every exportable column. */
  columns: z.array(z.string().trim().min(1).max(130)).min(1).max(DATA_PORT_MAX_COLUMNS).optional(),
  sort: z.array(z.object({ field: z.string(), direction: z.enum(['asc', 'desc']) })).max(3).optional(),
  /** A list view of the form: its scope, fixed filter and quick search narrow the rows; its columns and sort are the defaults. */
  viewCode: z.string().trim().max(64).optional(),
  /** The list's quick search (with viewCode: over the view's quick-search fields). */
  keyword: z.string().trim().max(200).optional(),
});
export type AddExportTaskBody = z.input<typeof AddExportTaskBody>;

export const AddTaskResult = z.object({ taskId: z.string() });

/** POST /v1/dataPort/LoadTaskRecords (calls.md §7/§9: RecentHours 72, PageIndex 1, PageSize 20 by default). */
export const LoadTaskRecordsBody = z.strictObject({
  Type: DataPortTaskType.optional(),
  TaskIds: z.array(TaskId).max(100).optional(),
  RecentHours: z.number().int().min(1).max(24 * 366).default(72),
  PageIndex: z.number().int().min(1).default(1),
  PageSize: z.number().int().min(1).max(100).default(20),
  SchemaCode: SchemaCode.optional(),
});

/** An import's roll back (docs/decisions/0031): its own background task, and the records done so far by outcome. */
export const ImportRollbackDto = z.object({
  state: z.enum(BACKGROUND_TASK_STATES),
  progress: z.number(),
  message: z.string().nullable(),
  rolledBackBy: z.string().nullable(),
  /** Records the import created, removed. */
  deleted: z.number(),
  /** Records the import updated, given their before-image back. */
  restored: z.number(),
  /** Records changed (or removed) after the import: left as they are (getRollbackReport lists them). */
  refused: z.number(),
  /** Records the import created that were removed meanwhile. */
  gone: z.number(),
  finishedTime: z.string().nullable(),
});
export type ImportRollbackDto = z.infer<typeof ImportRollbackDto>;

export const DataPortTaskDto = z.object({
  taskId: z.string(),
  type: DataPortTaskType,
  schemaCode: z.string(),
  /** The background task state (domain.md §4). */
  state: z.enum(BACKGROUND_TASK_STATES),
  /** Exports: the export state of domain.md §4. */
  exportState: z.enum(EXPORT_STATES).nullable(),
  importType: z.enum(IMPORT_TYPES).nullable(),
  dataState: z.enum(IMPORT_DATA_STATES).nullable(),
  progress: z.number(),
  message: z.string().nullable(),
  fileName: z.string().nullable(),
  total: z.number(),
  inserted: z.number(),
  updated: z.number(),
  rejected: z.number(),
  attempts: z.number(),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
  hasResult: z.boolean(),
  hasErrorReport: z.boolean(),
  /** Imports: the roll back, once asked for (docs/decisions/0031). */
  rollback: ImportRollbackDto.nullable().optional(),
  /** Imports: 回滚 may be asked for now (the import ended; no roll back yet, or one that died). */
  rollbackOffered: z.boolean().optional(),
});
export type DataPortTaskDto = z.infer<typeof DataPortTaskDto>;
export const LoadTaskRecordsResult = z.object({ list: z.array(DataPortTaskDto), total: z.number() });
export type LoadTaskRecordsResult = z.infer<typeof LoadTaskRecordsResult>;

/** GET /v2/dataPort/getExportColumns/{schemaCode}/{viewCode} */
export const ExportColumnsParams = z.strictObject({ schemaCode: SchemaCode, viewCode: z.string().trim().min(1).max(64) });
export const DataPortColumn = z.object({
  code: z.string(),
  displayName: z.string(),
  controlType: z.string(),
  grid: z.string().nullable(),
  importable: z.boolean(),
  required: z.boolean(),
  /** Written by an export by default (the view's columns when one is named). */
  selected: z.boolean().optional(),
});
export type DataPortColumn = z.infer<typeof DataPortColumn>;
export const ExportColumnsResult = z.object({
  columns: z.array(DataPortColumn),
  /** The list view the selection follows; null when viewCode names no view of the form. */
  viewCode: z.string().nullable().optional(),
});
export type ExportColumnsResult = z.infer<typeof ExportColumnsResult>;

/** GET /v1/dataPort/CancelWaitingTask/{type}/{taskId} */
export const CancelTaskParams = z.strictObject({ type: DataPortTaskType, taskId: TaskId });
/** POST /v1/dataPort/RetryTimeoutTasks */
export const RetryTasksBody = z.strictObject({ TaskIds: z.array(TaskId).min(1).max(100) });
export const RetryTasksResult = z.object({ retried: z.array(z.string()) });

/** POST /v1/dataPort/RollbackImportTask (ours, docs/decisions/0031): queues the roll back of an ended import. */
export const RollbackImportBody = z.strictObject({ TaskId: TaskId });
export const RollbackImportResult = z.object({ taskId: z.string(), rollback: ImportRollbackDto });
export type RollbackImportResult = z.infer<typeof RollbackImportResult>;
/** POST /v1/dataPort/getRollbackReport: the records a roll back left as they are, and why. */
export const RollbackReportBody = z.strictObject({ TaskId: TaskId });
export const RollbackReportRow = z.object({
  rowNo: z.number(),
  objectId: z.string(),
  action: z.enum(['insert', 'update']),
  outcome: z.enum(['refused', 'gone']),
  note: z.string(),
});
export const RollbackReportResult = z.object({ total: z.number(), rows: z.array(RollbackReportRow) });
export type RollbackReportResult = z.infer<typeof RollbackReportResult>;

/** POST /v1/dataPort/getDownloadUrl: a short-lived signed link to the export's file or the import's error report. */
export const DOWNLOAD_KINDS = ['Result', 'ErrorReport'] as const;
export const DownloadUrlBody = z.strictObject({ taskId: TaskId, kind: z.enum(DOWNLOAD_KINDS) });
export const DownloadUrlResult = z.object({ url: z.string(), fileName: z.string() });

/** GET /v1/dataImport/template/{schemaCode}: the form's columns as an .xlsx. */
export const TemplateParams = z.strictObject({ schemaCode: SchemaCode });

/** Legacy POST /ExcelImport/OnAction and /ExcelExport/OnAction: `{ActionName, ...}` or `{PostData: "<json>"}`. */
export const LegacyPortBody = z.looseObject({ ActionName: z.string().optional(), PostData: z.string().optional() });
