import type { ZodType } from 'zod';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import type { FileStore } from '../files/file-store.ts';
import { deleteStoredBytes } from '../business-data/record-files.ts';
import * as wf from './workflow.service.ts';

const tags = ['流程'];
// Every member of the engine may call; the engine decides (docs/decisions/0014): an item is its participant's, the
// template its app administrators', an instance is read by its participants, its originator and its form's users.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** The workflow engine's calls (calls.md §7 "Workflow"); payloads in docs/decisions/0014. */
export function workflowRoutes(app: TypedApp, deps: { db: Db; fileStore: FileStore }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const instance = env(contracts.WfInstanceDto);

  app.get('/v1/workflow/template/load', {
    config,
    schema: { tags, summary: '加载流程设计（草稿与最新发布版本）', querystring: contracts.WfTemplateQuery, response: env(contracts.WfTemplateLoadResult) },
    handler: async (request) => ok(await wf.loadTemplate(ctx(request), request.query.schemaCode)),
  });
  app.post('/v1/workflow/template/save', {
    config,
    schema: { tags, summary: '保存流程设计草稿（答复发布前校验的问题）', body: contracts.WfTemplateSaveBody, response: env(contracts.WfTemplateSaveResult) },
    handler: async (request) => ok(await wf.saveTemplate(ctx(request), request.body)),
  });
  app.post('/v1/workflow/template/publish', {
    config,
    schema: { tags, summary: '校验并发布流程（新版本；运行中的流程保持原版本）', body: contracts.WfTemplatePublishBody, response: env(contracts.WfTemplatePublishResult) },
    handler: async (request) => ok(await wf.publishTemplate(ctx(request), request.body)),
  });

  app.get('/v1/workflow/instance/info', {
    config,
    schema: { tags, summary: '流程实例、我的待办及可执行的操作', querystring: contracts.WfInstanceQuery, response: env(contracts.WfInstanceInfoResult) },
    handler: async (request) => ok(await wf.info(ctx(request), request.query)),
  });
  app.get('/v1/workflow/instance/detail', {
    config,
    schema: { tags, summary: '审批记录：令牌、工作项与意见', querystring: contracts.WfInstanceQuery, response: env(contracts.WfInstanceDetailResult) },
    handler: async (request) => ok(await wf.detail(ctx(request), request.query)),
  });
  app.get('/v1/workflow/instance/activity/list', {
    config,
    schema: { tags, summary: '流程图节点及其状态', querystring: contracts.WfInstanceQuery, response: env(contracts.WfActivityListResult) },
    handler: async (request) => ok(await wf.activityList(ctx(request), request.query)),
  });
  app.get('/v1/workflow/instance/participant/list', {
    config,
    schema: { tags, summary: '节点的参与者', querystring: contracts.WfParticipantQuery, response: env(contracts.WfParticipantListResult) },
    handler: async (request) => ok(await wf.participantList(ctx(request), request.query)),
  });
  app.get('/v1/workflow/handsign/config', {
    config,
    schema: { tags, summary: '待办的手写签名设置（不需要、可选、必须）及我上次的签名', querystring: contracts.WfHandSignConfigQuery, response: env(contracts.WfHandSignConfigResult) },
    handler: async (request) => ok(await wf.handSignConfig(ctx(request), request.query)),
  });
  app.get('/v1/workflow/instance/activity/pre', {
    config,
    schema: { tags, summary: '我的待办可退回到的节点', querystring: contracts.WfActivityPreQuery, response: env(contracts.WfActivityPreResult) },
    handler: async (request) => ok(await wf.activityPre(ctx(request), request.query)),
  });
  app.get('/v1/workflow/todos/count', {
    config,
    schema: { tags, summary: '待办与待阅数', response: env(contracts.WfTodosCountResult) },
    handler: async (request) => ok(await wf.todosCount(ctx(request))),
  });
  app.get('/v1/workflow/todos/unfinished/count', {
    config,
    schema: { tags, summary: '我发起的未完成流程数', response: env(contracts.WfUnfinishedCountResult) },
    handler: async (request) => ok(await wf.unfinishedCount(ctx(request))),
  });

  app.post('/v1/workflow/instance/start', {
    config,
    schema: { tags, summary: '为草稿数据发起流程（默认同时提交发起节点）', body: contracts.WfStartBody, response: instance },
    handler: async (request) => ok(await wf.start(ctx(request), request.body)),
  });
  const item = <B extends { workItemId: string; opinion?: contracts.WorkflowOpinion }>(path: string, summary: string, body: ZodType<B, any>, toAction: (b: B) => wf.WorkflowAction) =>
    app.post(path, {
      config,
      schema: { tags, summary, body, response: instance },
      handler: async (request) => ok(await wf.act(ctx(request), { itemId: (request.body as B).workItemId }, toAction(request.body as B))),
    });
  app.post('/v1/workflow/instance/submit', {
    config,
    schema: { tags, summary: '提交 / 同意（可带本节点可编辑字段的修改）', body: contracts.WfSubmitBody, response: instance },
    handler: async (request) => {
      const b = request.body;
      const edit = b.values || b.children ? { values: b.values ?? {}, children: b.children, dropped: [] as string[] } : undefined;
      const result = await wf.act(ctx(request), { itemId: b.workItemId }, { type: 'submit', itemId: b.workItemId, opinion: b.opinion }, edit);
      if (edit) await deleteStoredBytes({ store: deps.fileStore }, edit.dropped);
      return ok(result);
    },
  });
  app.post('/v1/workflow/instance/revise', {
    config,
    schema: { tags, summary: '修订（应用管理员修改流程中或已生效的数据，流程不动）', body: contracts.WfReviseBody, response: instance },
    handler: async (request) => {
      const dropped: string[] = [];
      const result = await wf.revise(ctx(request), request.body, dropped);
      await deleteStoredBytes({ store: deps.fileStore }, dropped);
      return ok(result);
    },
  });
  item('/v1/workflow/instance/reject', '不同意（按节点的驳回规则）', contracts.WfRejectBody, (b) => ({ type: 'reject', itemId: b.workItemId, opinion: b.opinion }));
  item('/v1/workflow/instance/forback', '退回到指定的已完成节点', contracts.WfForBackBody, (b) => ({ type: 'forback', itemId: b.workItemId, activityCode: b.activityCode, opinion: b.opinion }));
  item('/v1/workflow/instance/forward', '转交', contracts.WfForwardBody, (b) => ({ type: 'forward', itemId: b.workItemId, to: b.userId, opinion: b.opinion }));
  item('/v1/workflow/instance/addsign', '加签（前加签 / 后加签）', contracts.WfAddSignBody, (b) => ({ type: 'addsign', itemId: b.workItemId, position: b.position, userIds: b.userIds, opinion: b.opinion }));
  item('/v1/workflow/instance/consult', '征询意见', contracts.WfConsultBody, (b) => ({ type: 'consult', itemId: b.workItemId, userIds: b.userIds, opinion: b.opinion }));

  const whole = <B extends { instanceId: string }>(path: string, summary: string, body: ZodType<B, any>, toAction: (b: B) => wf.WorkflowAction) =>
    app.post(path, {
      config,
      schema: { tags, summary, body, response: instance },
      handler: async (request) => ok(await wf.act(ctx(request), { instanceId: (request.body as B).instanceId }, toAction(request.body as B))),
    });
  whole('/v1/workflow/instance/retrieve', '撤回（下一节点尚未处理时）', contracts.WfRetrieveBody, (b) => ({ type: 'retrieve', opinion: b.opinion }));
  whole('/v1/workflow/instance/cancel', '取消流程（数据作废）', contracts.WfCancelBody, (b) => ({ type: 'cancel', opinion: b.opinion }));
  whole('/v1/workflow/instance/finish', '结束流程（数据生效）', contracts.WfFinishBody, (b) => ({ type: 'finish', opinion: b.opinion }));
  whole('/v1/workflow/instance/urge', '催办（发给每个未完成的待办）', contracts.WfUrgeBody, (b) => ({ type: 'urge', content: b.content }));
  whole('/v1/workflow/instance/reactivate', '重新激活到指定节点与处理人', contracts.WfReactivateBody, (b) => ({ type: 'reactivate', activityCode: b.activityCode, userIds: b.userIds, opinion: b.opinion }));
  whole('/v1/workflow/instance/circulate', '传阅', contracts.WfCirculateBody, (b) => ({ type: 'circulate', userIds: b.userIds, itemId: b.workItemId, opinion: b.opinion }));
  whole('/v1/workflow/instance/read', '标记待阅为已阅', contracts.WfReadBody, (b) => ({ type: 'read', itemIds: b.workItemIds }));
}
