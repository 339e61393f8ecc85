import { ViewMode } from '@tritium/shared/constants/views';
import { c, dayOf, designForm, designViews, newApp, newBoard, newForm, submitRecord, type TemplateBuilder } from './build-kit.ts';

// 项目管理: projects and their tasks (start, end, progress, owner, the project, a parent task); a Gantt chart of the
// tasks with levels by the parent task; each project rolls up its tasks and the finished ones (docs/decisions/0132).

export const PROJECTS: { name: string; client: string; from: number; to: number; budget: number; status: string }[] = [
  { name: '官网改版', client: '市场部', from: -30, to: 30, budget: 120000, status: '进行中' },
  { name: 'CRM 系统上线', client: '销售部', from: -14, to: 60, budget: 260000, status: '进行中' },
];

/** Tasks: project index, name, parent task (an index into this list, earlier), start and end (days), progress, priority. */
export const TASKS: [number, string, number | null, number, number, number, string][] = [
  [0, '需求与设计', null, -30, -10, 100, '高'],
  [0, '用户调研', 0, -30, -24, 100, '中'],
  [0, '页面视觉设计', 0, -23, -10, 100, '高'],
  [0, '开发与测试', null, -9, 20, 45, '高'],
  [0, '前端页面开发', 3, -9, 8, 70, '高'],
  [0, '内容管理后台', 3, -5, 12, 30, '中'],
  [0, '兼容性测试', 3, 9, 20, 0, '中'],
  [0, '正式上线', null, 25, 30, 0, '高'],
  [1, '业务梳理', null, -14, -2, 100, '高'],
  [1, '销售流程访谈', 8, -14, -8, 100, '中'],
  [1, '客户数据清洗', 8, -7, -2, 100, '中'],
  [1, '系统配置', null, -1, 30, 20, '高'],
  [1, '审批流程配置', 11, -1, 14, 40, '高'],
  [1, '报表与看板', 11, 10, 30, 0, '中'],
  [1, '用户培训', null, 35, 45, 0, '中'],
  [1, '上线验收', null, 50, 60, 0, '高'],
];

/** A task counts as done at 100 % progress. */
export const isDone = (progress: number) => progress >= 100;
export const taskStatus = (progress: number) => (isDone(progress) ? '已完成' : progress > 0 ? '进行中' : '未开始');

export const buildProject: TemplateBuilder = async (ctx) => {
  const appCode = await newApp(ctx, { name: '项目管理', icon: 'project', iconColor: '#2f54eb', summary: '管理项目与任务，甘特图查看进度与层级，项目自动汇总任务完成情况' });
  const project = await newForm(ctx, appCode, '项目');
  const task = await newForm(ctx, appCode, '任务');
  const projectControls = [
    c.text('ProjectName', '项目名称', { required: true }),
    c.user('Manager', '项目经理', { defaultValue: 'currentUser' }),
    c.text('Client', '需求方'),
    c.date('StartDate', '开始日期'),
    c.date('EndDate', '结束日期'),
    c.money('Budget', '预算'),
    c.choice('ProjectStatus', '项目状态', ['未开始', '进行中', '已完成', '已暂停']),
  ];
  await designForm(ctx, project, { name: '项目', nameSchema: '{ProjectName}', controls: projectControls });
  await designForm(ctx, task, {
    name: '任务',
    nameSchema: '{TaskName}',
    controls: [
      c.text('TaskName', '任务名称', { required: true }),
      c.link('Project', '所属项目', project, { required: true }),
      c.link('ParentTask', '上级任务', task),
      c.user('Owner', '负责人', { defaultValue: 'currentUser' }),
      c.date('StartDate', '开始日期', { required: true }),
      c.date('EndDate', '结束日期', { required: true }),
      c.number('Progress', '进度（%）', { decimalPlaces: 0, rangeRule: { min: 0, max: 100 } }),
      c.choice('Priority', '优先级', ['高', '中', '低']),
      c.formula('TaskStatus', '任务状态', 'IF({Progress}>=100,"已完成",IF({Progress}>0,"进行中","未开始"))', { bindType: 'string' }),
    ],
  });
  await designForm(ctx, project, {
    name: '项目',
    nameSchema: '{ProjectName}',
    controls: [
      ...projectControls,
      c.rollup('TaskCount', '任务数', { rollupType: 'count', sourceSchemaCode: task, sourceCode: 'Project', decimalPlaces: 0 }),
      c.rollup('DoneCount', '已完成任务', { rollupType: 'count', sourceSchemaCode: task, sourceCode: 'Project', filter: '{Progress}>=100', decimalPlaces: 0 }),
    ],
  });
  const taskColumns = ['TaskName', 'Project', 'ParentTask', 'Owner', 'StartDate', 'EndDate', 'Progress', 'TaskStatus'].map((field) => ({ field }));
  await designViews(ctx, task, [
    { code: 'Gantt', title: '甘特图', mode: ViewMode.Gantt, columns: taskColumns, settings: { startField: 'StartDate', endField: 'EndDate', titleField: 'TaskName', progressField: 'Progress', parentField: 'ParentTask', swimlanes: [] } },
    { code: 'List', title: '任务列表', columns: taskColumns, sort: [{ field: 'StartDate', direction: 'asc' }] },
  ]);
  await designViews(ctx, project, [{ title: '全部项目', columns: ['ProjectName', 'Manager', 'StartDate', 'EndDate', 'ProjectStatus', 'TaskCount', 'DoneCount'].map((field) => ({ field })) }]);
  const board = await newBoard(ctx, appCode, '项目看板', [
    { type: 'bar', title: '任务完成情况（按项目）', source: { schemaCode: project }, dimensions: [{ field: 'ProjectName' }], measures: [{ aggregate: 'sum', field: 'TaskCount', label: '任务数' }, { aggregate: 'sum', field: 'DoneCount', label: '已完成' }], wide: true },
    { type: 'pie', title: '任务数（按状态）', source: { schemaCode: task }, dimensions: [{ field: 'TaskStatus' }], measures: [{ aggregate: 'count' }] },
  ]);
  const projectIds: string[] = [];
  for (const p of PROJECTS) {
    projectIds.push(await submitRecord(ctx, project, { ProjectName: p.name, Client: p.client, StartDate: dayOf(ctx, p.from), EndDate: dayOf(ctx, p.to), Budget: p.budget, ProjectStatus: p.status, Manager: ctx.userId }));
  }
  const taskIds: string[] = [];
  for (const [p, name, parent, from, to, progress, priority] of TASKS) {
    const values = { TaskName: name, Project: projectIds[p], ParentTask: parent === null ? null : taskIds[parent], Owner: ctx.userId, StartDate: dayOf(ctx, from), EndDate: `${dayOf(ctx, to).slice(0, 10)}T18:00:00+08:00`, Progress: progress, Priority: priority };
    taskIds.push(await submitRecord(ctx, task, values));
  }
  return { appCode, forms: { project, task }, boards: { project: board } };
};
