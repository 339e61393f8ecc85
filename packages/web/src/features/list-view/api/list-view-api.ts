import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import type { FilterNode } from '@tritium/shared/query/index';
import { apiClient } from '../../../lib/api-client.ts';

// The list view's calls (docs/decisions/0017): view settings, the designer, personal views, the view's data and the
// batch update job.

export type ViewSetting = contracts.ViewSetting;
export type ViewField = contracts.ViewField;
export type PersonalView = contracts.PersonalView;
export type PersonalViewConfig = contracts.PersonalViewConfig;
export type ViewQueryResult = contracts.ViewQueryResult;
export type BatchTask = contracts.BatchTask;
export type ViewSettingResult = z.infer<typeof contracts.ViewSettingResult>;
export type PageHeader = z.infer<typeof contracts.PageHeaderResult>;
export type DesignerLoad = z.infer<typeof contracts.DesignerLoadResult>;
export type ViewDeleteResult = z.infer<typeof contracts.ViewDeleteResult>;
export type SortKey = { field: string; direction: 'asc' | 'desc' };
export type HierarchyChildren = contracts.HierarchyChildrenResult;
export type HierarchyChildrenInput = Omit<ViewQueryInput, 'withStats' | 'viewCode'> & { viewCode: string; parentId?: string | null };

export type KanbanBoard = contracts.KanbanBoardResult;
export type KanbanColumn = contracts.KanbanColumn;
export type CalendarRange = contracts.CalendarRangeResult;
export type GanttTasks = contracts.GanttTasksResult;
/** What narrows a mode's records as it narrows the list's (docs/decisions/0047). */
export type ModeNarrowing = { schemaCode: string; viewCode: string; personalViewId?: string; filter?: FilterNode; keyword?: string };

export interface ViewQueryInput {
  schemaCode: string;
  viewCode?: string;
  personalViewId?: string;
  filter?: FilterNode;
  keyword?: string;
  sort?: SortKey[];
  pageIndex: number;
  pageSize: number;
  withStats?: boolean;
}

export const listViewKeys = {
  settings: (schemaCode: string) => ['list-view', 'settings', schemaCode] as const,
  header: (schemaCode: string, viewCode: string) => ['list-view', 'header', schemaCode, viewCode] as const,
  personal: (schemaCode: string) => ['list-view', 'personal', schemaCode] as const,
  data: (schemaCode: string) => ['list-view', 'data', schemaCode] as const,
  designer: (schemaCode: string) => ['list-view', 'designer', schemaCode] as const,
};

export const listViewApi = {
  settings: (schemaCode: string) => apiClient.get<ViewSettingResult>('/v1/view/setting', { query: { schemaCode } }),
  header: (schemaCode: string, viewCode: string) => apiClient.get<PageHeader>('/v1/page/header', { query: { schemaCode, viewCode } }),
  designerLoad: (schemaCode: string) => apiClient.get<DesignerLoad>('/v1/view/designer/load', { query: { schemaCode } }),
  designerSave: (schemaCode: string, views: ViewSetting[]) => apiClient.post<ViewSettingResult>('/v1/view/designer/save', { schemaCode, views }, { disableBizError: true }),
  personalViews: (schemaCode: string) => apiClient.get<{ list: PersonalView[] }>('/v1/preference/view/list', { query: { schemaCode } }),
  addView: (body: { schemaCode: string; ViewPageId: string; Title: string; Config: PersonalViewConfig; Fields?: string[] }) =>
    apiClient.post<PersonalView>('/v1/preference/view/addView', body),
  updateView: (body: { Id: string; Title?: string; Config?: PersonalViewConfig; Visible?: boolean }) => apiClient.post<PersonalView>('/v1/preference/view/updateView', body),
  deleteView: (Id: string) => apiClient.post<{ Id: string }>('/v1/preference/view/deleteView', { Id }),
  sortViews: (schemaCode: string, ids: string[]) => apiClient.post<{ list: PersonalView[] }>('/v1/preference/view/view/sort', { schemaCode, ids }),
  query: (body: ViewQueryInput) => apiClient.post<ViewQueryResult>('/v1/bizdata/view/query', body),
  /** One level of a hierarchy view (docs/decisions/0023); refusals (limits) are shown by the table itself. */
  children: (body: HierarchyChildrenInput) => apiClient.post<HierarchyChildren>('/v1/bizdata/view/children', body, { disableBizError: true }),
  /** The kanban board: counts per column and the first cards (docs/decisions/0047). */
  kanban: (body: ModeNarrowing) => apiClient.post<KanbanBoard>('/v1/bizdata/view/kanban', body),
  kanbanColumn: (body: ModeNarrowing & { value: string | number | null; pageIndex: number }) =>
    apiClient.post<{ list: Record<string, unknown>[]; total: number; hasMore: boolean }>('/v1/bizdata/view/kanban/column', body),
  /** The calendar's visible range (at most 1,000 records). */
  calendar: (body: ModeNarrowing & { start: string; end: string }) => apiClient.post<CalendarRange>('/v1/bizdata/view/calendar', body),
  /** The Gantt chart's tasks with their levels, kinds, order and links (docs/decisions/0054). */
  gantt: (body: ModeNarrowing) => apiClient.post<GanttTasks>('/v1/bizdata/view/gantt', body),
  /** The map's records: all with a place, or those within a radius of a point (docs/decisions/0047). */
  map: (body: ModeNarrowing & { center?: { lat: number; lng: number }; radius?: 200 | 500 | 1000 }) =>
    apiClient.post<{ list: Record<string, unknown>[]; total: number; hasMore: boolean }>('/v1/bizdata/view/map', body),
  /** A list button of the form's script (onListAction, docs/decisions/0118) with the records chosen. */
  scriptAction: (body: { schemaCode: string; actionName: string; objectIds: string[] }) => apiClient.post<{ data?: unknown }>('/v1/codeeditor/listaction', body),
  remove: (schemaCode: string, objectIds: string[]) => apiClient.post<ViewDeleteResult>('/v1/bizdata/view/delete', { schemaCode, objectIds }),
  changeOwner: (body: { schemaCode: string; objectIds: string[]; ownerId: string }) => apiClient.post<{ changed: number }>('/v1/bizdata/owner/change', body),
  batchUpdate: (body: { schemaCode: string; viewCode?: string; objectIds?: string[]; filter?: FilterNode; keyword?: string; field: string; value: unknown }) =>
    apiClient.post<{ taskId: string }>('/v1/bizdata/batchupdate', body),
  batchProgress: (taskId: string) => apiClient.post<BatchTask>('/v1/bizdata/batchupdate/progress', { taskId }),
};

/**
 * The Gantt task calls (calls.md §7; docs/decisions/0054). Refusals come back to the chart, which shows them and puts
 * the bar back (save-move.ts), so the client's own error message stays off.
 */
type GanttTask = { schemaCode: string; viewCode: string; objectId: string };
const quiet = { disableBizError: true } as const;
export const ganttApi = {
  update: (body: GanttTask & { start?: string; end?: string; progress?: number }) => apiClient.post<{ objectId: string }>('/v1/gantt/task/update', body, quiet),
  changeLevel: (body: GanttTask & { parentId: string | null }) => apiClient.post<{ objectId: string }>('/v1/gantt/task/changelevel', body, quiet),
  updateType: (body: GanttTask & { type: 'task' | 'milestone' }) => apiClient.post<{ objectId: string }>('/v1/gantt/task/updatetype', body, quiet),
  sort: (body: { schemaCode: string; viewCode: string; objectIds: string[] }) => apiClient.post<{ sorted: number }>('/v1/gantt/task/sort', body, quiet),
  saveDependency: (body: GanttTask & { predecessors: string[] }) => apiClient.post<{ objectId: string; predecessors: string[] }>('/v1/gantt/task/savedependency', body, quiet),
};
