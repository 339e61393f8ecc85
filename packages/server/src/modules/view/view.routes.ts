import { z } from 'zod';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { FileStore } from '../files/file-store.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import * as settings from './view-settings.service.ts';
import * as personal from './personal-views.service.ts';
import * as data from './view-query.service.ts';
import * as batch from './batch-update.job.ts';
import * as hierarchy from './hierarchy.service.ts';
import * as kanban from './kanban.service.ts';
import * as calendar from './calendar.service.ts';
import * as maps from './map.service.ts';
import * as gantt from './gantt.service.ts';
import { shortLinkTarget } from './short-links.ts';
import { AppError } from '../../lib/app-error.ts';

const viewTags = ['视图'];
const dataTags = ['业务数据'];
const ganttTags = ['甘特图'];
// Every member of the engine may call; the services decide (docs/decisions/0017): a form one may not open is 404,
// designing views needs an administrator of the form's app, personal views are their owner's only.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** List views (calls.md §7 "Schema, views, workbench" and "Business data"), at the spec's paths. */
export function viewRoutes(app: TypedApp, deps: { db: Db; fileStore: FileStore; now?: () => number }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const now = () => new Date(deps.now?.() ?? Date.now());
  const files = { store: deps.fileStore };

  app.get('/v1/view/setting', {
    config,
    schema: { tags: viewTags, summary: '表单的视图设置（未设计时为默认视图）', querystring: contracts.SchemaCodeQuery, response: env(contracts.ViewSettingResult) },
    handler: async (request) => ok(await settings.viewSetting(ctx(request), request.query.schemaCode)),
  });
  app.get('/v1/view/designer/load', {
    config,
    schema: { tags: viewTags, summary: '视图设计器：视图与可用字段（应用管理员）', querystring: contracts.SchemaCodeQuery, response: env(contracts.DesignerLoadResult) },
    handler: async (request) => ok(await settings.designerLoad(ctx(request), request.query.schemaCode)),
  });
  app.get('/v1/page/header', {
    config,
    schema: { tags: viewTags, summary: '列表表头：视图的列与可筛选字段', querystring: contracts.ViewQueryString, response: env(contracts.PageHeaderResult) },
    handler: async (request) => ok(await settings.pageHeader(ctx(request), request.query.schemaCode, request.query.viewCode)),
  });
  app.get('/v1/view/designer/column/default', {
    config,
    schema: { tags: viewTags, summary: '视图设计器：默认列（应用管理员）', querystring: contracts.SchemaCodeQuery, response: env(contracts.DefaultColumnsResult) },
    handler: async (request) => ok(await settings.defaultColumnsOf(ctx(request), request.query.schemaCode)),
  });
  app.post('/v1/view/designer/save', {
    config,
    schema: { tags: viewTags, summary: '保存表单的全部视图（顺序即显示顺序；应用管理员）', body: contracts.DesignerSaveBody, response: env(contracts.ViewSettingResult) },
    handler: async (request) => ok(await settings.saveViews(ctx(request), request.body, now())),
  });

  // calls.md §7 names the list call GET /v1/preference/view/list; the shorter path stays for existing clients.
  for (const path of ['/v1/preference/view/list', '/v1/preference/view']) {
    app.get(path, {
      config,
      schema: { tags: viewTags, summary: '我的个人视图', querystring: contracts.SchemaCodeQuery, response: env(contracts.PersonalViewList) },
      handler: async (request) => ok(await personal.listPersonalViews(ctx(request), request.query.schemaCode)),
    });
  }
  app.post('/v1/preference/view/addView', {
    config,
    schema: { tags: viewTags, summary: '保存个人视图', body: contracts.AddPersonalViewBody, response: env(contracts.PersonalView) },
    handler: async (request) => ok(await personal.addPersonalView(ctx(request), request.body)),
  });
  app.post('/v1/preference/view/updateView', {
    config,
    schema: { tags: viewTags, summary: '修改个人视图（重命名、条件、列）', body: contracts.UpdatePersonalViewBody, response: env(contracts.PersonalView) },
    handler: async (request) => ok(await personal.updatePersonalView(ctx(request), request.body)),
  });
  app.post('/v1/preference/view/deleteView', {
    config,
    schema: { tags: viewTags, summary: '删除个人视图', body: contracts.DeletePersonalViewBody, response: env(z.object({ Id: z.string() })) },
    handler: async (request) => ok(await personal.deletePersonalView(ctx(request), request.body.Id)),
  });
  app.post('/v1/preference/view/view/sort', {
    config,
    schema: { tags: viewTags, summary: '个人视图排序', body: contracts.SortPersonalViewBody, response: env(contracts.PersonalViewList) },
    handler: async (request) => ok(await personal.sortPersonalViews(ctx(request), request.body)),
  });

  app.post('/v1/bizdata/view/query', {
    config,
    schema: { tags: dataTags, summary: '按视图查询数据（视图范围、条件、快速搜索、排序、统计）', body: contracts.ViewQueryBody, response: env(contracts.ViewQueryResult) },
    handler: async (request) => ok(await data.viewQuery(ctx(request), request.body, { now: now() })),
  });
  app.post('/v1/bizdata/view/children', {
    config,
    schema: { tags: dataTags, summary: '层级视图：一层数据（根或某条数据的下级），分页，带下级数量', body: contracts.HierarchyChildrenBody, response: env(contracts.HierarchyChildrenResult) },
    handler: async (request) => ok(await hierarchy.hierarchyChildren(ctx(request), request.body, { now: now() })),
  });
  app.post('/v1/bizdata/view/kanban', {
    config,
    schema: { tags: dataTags, summary: '看板视图：各列数量（按分组字段统计）与每列的前几张卡片', body: contracts.KanbanBoardBody, response: env(contracts.KanbanBoardResult) },
    handler: async (request) => ok(await kanban.kanbanBoard(ctx(request), request.body, { now: now() })),
  });
  app.post('/v1/bizdata/view/kanban/column', {
    config,
    schema: { tags: dataTags, summary: '看板视图：一列的下一页卡片', body: contracts.KanbanColumnBody, response: env(contracts.KanbanColumnResult) },
    handler: async (request) => ok(await kanban.kanbanColumn(ctx(request), request.body, { now: now() })),
  });
  app.post('/v1/bizdata/view/calendar', {
    config,
    schema: { tags: dataTags, summary: '日历视图与时间轴视图：可见时间范围内的数据（最多1000条）', body: contracts.CalendarRangeBody, response: env(contracts.CalendarRangeResult) },
    handler: async (request) => ok(await calendar.calendarRange(ctx(request), request.body, { now: now() })),
  });
  app.post('/v1/bizdata/view/gantt', {
    config,
    schema: { tags: dataTags, summary: '甘特图：视图的任务（按开始时间，最多1000条）、层级、类型、顺序与任务依赖', body: contracts.GanttTasksBody, response: env(contracts.GanttTasksResult) },
    handler: async (request) => ok(await gantt.ganttTasks(ctx(request), request.body, { now: now() })),
  });
  // The Gantt task calls (calls.md §7; docs/decisions/0054): dates, progress and parent save through the form runtime.
  app.post('/v1/gantt/task/update', {
    config,
    schema: { tags: ganttTags, summary: '甘特图：移动任务、调整工期或进度（按表单的保存规则）', body: contracts.GanttUpdateBody, response: env(contracts.GanttTaskResult) },
    handler: async (request) => ok(await gantt.updateTask(ctx(request), request.body, files)),
  });
  app.post('/v1/gantt/task/changelevel', {
    config,
    schema: { tags: ganttTags, summary: '甘特图：调整任务层级（上级任务，按表单的保存规则）', body: contracts.GanttChangeLevelBody, response: env(contracts.GanttTaskResult) },
    handler: async (request) => ok(await gantt.changeLevel(ctx(request), request.body, files)),
  });
  app.post('/v1/gantt/task/updatetype', {
    config,
    schema: { tags: ganttTags, summary: '甘特图：设为任务或里程碑', body: contracts.GanttUpdateTypeBody, response: env(contracts.GanttTaskResult) },
    handler: async (request) => ok(await gantt.updateType(ctx(request), request.body)),
  });
  app.post('/v1/gantt/task/sort', {
    config,
    schema: { tags: ganttTags, summary: '甘特图：同级任务的顺序', body: contracts.GanttSortBody, response: env(contracts.GanttSortResult) },
    handler: async (request) => ok(await gantt.sortTasks(ctx(request), request.body)),
  });
  app.post('/v1/gantt/task/savedependency', {
    config,
    schema: { tags: ganttTags, summary: '甘特图：保存任务的前置任务（完成-开始）', body: contracts.GanttSaveDependencyBody, response: env(contracts.GanttDependencyResult) },
    handler: async (request) => ok(await gantt.saveDependency(ctx(request), request.body)),
  });
  app.post('/v1/bizdata/view/map', {
    config,
    schema: { tags: dataTags, summary: '地图视图：有位置的数据，或某点周围200/500/1000米内的数据（由近到远，最多1000条）', body: contracts.MapRecordsBody, response: env(contracts.MapRecordsResult) },
    handler: async (request) => ok(await maps.mapRecords(ctx(request), request.body, { now: now() })),
  });
  app.post('/v1/bizdata/view/delete', {
    config,
    schema: { tags: dataTags, summary: '批量删除选中的数据（逐条校验）', body: contracts.ViewDeleteBody, response: env(contracts.ViewDeleteResult) },
    handler: async (request) => ok(await data.viewDelete(ctx(request), request.body, files)),
  });
  app.post('/v1/bizdata/property/distinct', {
    config,
    schema: { tags: dataTags, summary: '视图内某字段的不同值', body: contracts.PropertyDistinctBody, response: env(contracts.DistinctValueResult) },
    handler: async (request) => ok(await data.propertyDistinct(ctx(request), request.body, { now: now() })),
  });
  app.post('/v1/bizdata/shortlink', {
    config,
    schema: { tags: dataTags, summary: '短链接：数据或本站页面的短地址（/s/<code>）', body: contracts.ShortLinkBody, response: env(contracts.ShortLinkResult) },
    handler: async (request) => ok(await data.shortLink(ctx(request), request.body)),
  });
  app.get('/s/:code', {
    config: { access: 'public', rateLimit: { max: 60, timeWindow: 60_000 } },
    schema: { tags: dataTags, summary: '打开短链接（重定向到它代表的页面）', params: z.strictObject({ code: z.string().max(64) }) },
    handler: async (request, reply) => {
      const target = await shortLinkTarget(deps.db, request.params.code);
      if (!target) throw new AppError('PublicLinkNotFound');
      return reply.redirect(target, 302);
    },
  });
  app.post('/v1/bizdata/batchupdate', {
    config,
    schema: { tags: dataTags, summary: '批量修改一个字段（后台任务）', body: contracts.BatchUpdateBody, response: env(z.object({ taskId: z.string() })) },
    handler: async (request) => ok(await batch.startBatchUpdate(ctx(request), request.body)),
  });
  app.post('/v1/bizdata/batchupdate/progress', {
    config,
    schema: { tags: dataTags, summary: '批量修改的进度与结果', body: contracts.BatchTaskId, response: env(contracts.BatchTask) },
    handler: async (request) => ok(await batch.batchProgress(ctx(request), request.body.taskId)),
  });
  app.post('/v1/bizdata/batchupdate/tasks', {
    config,
    schema: { tags: dataTags, summary: '我的批量修改任务（最近20个）', body: z.strictObject({ schemaCode: contracts.SchemaCode.optional() }), response: env(contracts.BatchTaskList) },
    handler: async (request) => ok(await batch.batchTasks(ctx(request), request.body.schemaCode)),
  });
}
