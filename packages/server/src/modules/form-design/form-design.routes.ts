import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import * as design from './form-design.service.ts';
import * as checks from './form-checks.service.ts';
import * as schemas from './form-schema.service.ts';
import * as indexes from './custom-index.service.ts';
import * as seqNo from './seq-no.service.ts';
import { hiddenForms } from './form-visibility.ts';

const tags = ['表单设计'];
// Every member of the engine may call; the services decide (docs/decisions/0006): designing needs the form's app
// administered, reading the published schema needs the form opened.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** The form designer, schema publishing, custom indexes and the published schema (calls.md §7), at the spec's paths. */
export function formDesignRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  app.post('/v1/formdesign/load', {
    config,
    schema: { tags, summary: '加载表单设计（首次加载时创建草稿）', body: contracts.FormDesignLoadBody, response: env(contracts.FormDesignLoadResult) },
    handler: async (request) => ok(await design.loadDesign(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/formdesign/save', {
    config,
    schema: { tags, summary: '保存表单草稿', body: contracts.FormDesignSaveBody, response: env(contracts.FormDesignSaveResult) },
    handler: async (request) => ok(await design.saveDesign(ctx(request), request.body)),
  });
  app.post('/v1/formdesign/publish', {
    config,
    schema: { tags, summary: '发布表单：按草稿版本变更数据表（会丢失数据的变更须确认）', body: contracts.FormDesignPublishBody, response: env(contracts.FormDesignPublishResult) },
    handler: async (request) => ok(await design.publishDesign(ctx(request), request.body)),
  });
  app.post('/v1/formdesign/checkcodeavailable', {
    config,
    schema: { tags, summary: '检查控件编码或表单编码是否可用', body: contracts.CheckCodeAvailableBody, response: env(contracts.CheckCodeAvailableResult) },
    handler: async (request) => ok(await checks.checkCodeAvailable(ctx(request), request.body)),
  });
  app.post('/v1/formdesign/checkreference', {
    config,
    schema: { tags, summary: '控件被哪些设置引用', body: contracts.CheckReferenceBody, response: env(contracts.CheckReferenceResult) },
    handler: async (request) => ok(await checks.checkReference(ctx(request), request.body)),
  });
  app.post('/v1/formdesign/incomplete', {
    config,
    schema: { tags, summary: '设置不完整的控件', body: contracts.IncompleteBody, response: env(contracts.IncompleteResult) },
    handler: async (request) => ok(await checks.incomplete(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/formdesign/checktreestructure', {
    config,
    schema: { tags, summary: '检查树形结构（循环引用、层级与数据量）', body: contracts.CheckTreeStructureBody, response: env(contracts.CheckTreeStructureResult) },
    handler: async (request) => ok(await checks.checkTreeStructure(ctx(request), request.body.schemaCode, request.body.parentCode)),
  });
  app.post('/v1/formdesign/associationform/field', {
    config,
    schema: { tags, summary: '关联表单的已发布字段', body: contracts.AssociationFormFieldBody, response: env(contracts.AssociationFormFieldResult) },
    handler: async (request) => ok(await schemas.associationFormFields(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/formdesign/seqno/info', {
    config,
    schema: { tags, summary: '流水号计数', body: contracts.SeqNoInfoBody, response: env(contracts.SeqNoInfoResult) },
    handler: async (request) => ok(await seqNo.seqNoInfo(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/formdesign/seqno/reset', {
    config,
    schema: { tags, summary: '重置流水号', body: contracts.SeqNoResetBody, response: env(contracts.SeqNoResetResult) },
    handler: async (request) => ok(await seqNo.resetSeqNo(ctx(request), request.body)),
  });

  app.post('/v1/formconfig/customindex/list', {
    config,
    schema: { tags, summary: '表单的自定义索引', body: contracts.CustomIndexListBody, response: env(contracts.CustomIndexListResult) },
    handler: async (request) => ok(await indexes.listCustomIndexes(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/formconfig/customindex/save', {
    config,
    schema: { tags, summary: '新建或替换自定义索引', body: contracts.CustomIndexSaveBody, response: env(contracts.CustomIndexSaveResult) },
    handler: async (request) => ok(await indexes.saveCustomIndex(ctx(request), request.body)),
  });
  app.post('/v1/formconfig/customindex/remove', {
    config,
    schema: { tags, summary: '删除自定义索引', body: contracts.CustomIndexRemoveBody, response: env(contracts.CustomIndexRemoveResult) },
    handler: async (request) => ok(await indexes.removeCustomIndex(ctx(request), request.body)),
  });

  app.get('/v1/schema', {
    config,
    schema: { tags, summary: '已发布的表单结构', querystring: contracts.SchemaQuery, response: env(contracts.FormSchemaDto) },
    handler: async (request) => ok(await schemas.getSchema(ctx(request), request.query.schemaCode)),
  });
  app.post('/v1/form/loadsetting', {
    config,
    schema: { tags, summary: '表单结构与缓存时间戳（未变化时只回 notModified）', body: contracts.LoadSettingBody, response: env(contracts.LoadSettingResult) },
    handler: async (request) => ok(await schemas.loadSetting(ctx(request), request.body)),
  });
  app.get('/v1/form/hidden', {
    config,
    schema: { tags, summary: '在某一端（电脑或手机）不显示的表单', querystring: contracts.HiddenFormsQuery, response: env(contracts.HiddenFormsResult) },
    handler: async (request) => ok({ codes: await hiddenForms(ctx(request), request.query.device) }),
  });
}
