import { z } from 'zod';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import type { StartWorkflow } from '../business-data/record.service.ts';
import { getOpenQuery, openQueryPage, resetOpenQuery, saveOpenQuery, searchOpenQuery, sendQueryCode, type QueryCodes } from './open-query.service.ts';
import { createShare, listShares, revokeShare, sharedRecord } from './record-share.service.ts';
import { getPublicLink, publicForm, resetPublicLink, savePublicLink, submitPublicForm } from './external-form.service.ts';

const tags = ['外部填报'];
const shareTags = ['外链分享'];
const queryTags = ['公开查询'];
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });
/** A visitor has no account: their calls are limited per address. */
const VISITOR_LIMIT = { max: 30, timeWindow: 60_000 };

export function externalFormRoutes(app: TypedApp, deps: { db: Db; startWorkflow: StartWorkflow; codes: QueryCodes; now?: () => Date }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const now = () => deps.now?.() ?? new Date();
  app.post('/v1/form/externalform/get', {
    config,
    schema: { tags, summary: '表单的公开填报链接', body: contracts.PublicLinkGetBody, response: env(contracts.PublicLinkResult) },
    handler: async (request) => ok(await getPublicLink(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/form/externalform/save', {
    config,
    schema: { tags, summary: '设置公开填报链接（开关、密码、有效期、提交上限、数据归属人）', body: contracts.PublicLinkSaveBody, response: env(contracts.PublicLinkResult) },
    handler: async (request) => ok(await savePublicLink(ctx(request), request.body)),
  });
  app.post('/v1/form/externalform/reset', {
    config,
    schema: { tags, summary: '重新生成链接（旧链接立即失效）', body: contracts.PublicLinkResetBody, response: env(contracts.PublicLinkResult) },
    handler: async (request) => ok(await resetPublicLink(ctx(request), request.body.schemaCode)),
  });
  app.get('/v1/external/form', {
    config: { access: 'public', rateLimit: VISITOR_LIMIT },
    schema: {
      tags,
      summary: '访客打开公开填报的表单（密码放在 X-Link-Password 请求头）',
      querystring: contracts.PublicFormQuery,
      headers: z.object({ 'x-link-password': z.string().max(64).optional() }).passthrough(),
      response: env(contracts.PublicFormResult),
    },
    handler: async (request) => {
      const password = request.headers['x-link-password'];
      return ok(await publicForm(deps.db, request.query, typeof password === 'string' ? password : undefined));
    },
  });
  app.post('/v1/external/form/submit', {
    config: { access: 'public', rateLimit: VISITOR_LIMIT },
    schema: { tags, summary: '访客提交公开填报的表单', body: contracts.PublicSubmitBody, response: env(contracts.PublicSubmitResult) },
    handler: async (request) => ok(await submitPublicForm(deps.db, request.body, deps.startWorkflow)),
  });
  app.post('/v1/form/externalshare/create', {
    config,
    schema: { tags: shareTags, summary: '分享一条数据（只读链接，可设有效期与密码）', body: contracts.RecordShareCreateBody, response: env(contracts.RecordShareResult) },
    handler: async (request) => ok(await createShare(ctx(request), request.body, now())),
  });
  app.post('/v1/form/externalshare/list', {
    config,
    schema: { tags: shareTags, summary: '数据的分享链接（本人创建的；管理员看全部）', body: contracts.RecordShareListBody, response: env(contracts.RecordShareListResult) },
    handler: async (request) => ok(await listShares(ctx(request), request.body, now())),
  });
  app.post('/v1/form/externalshare/revoke', {
    config,
    schema: { tags: shareTags, summary: '取消分享（链接立即失效）', body: contracts.RecordShareRevokeBody, response: env(z.object({ revoked: z.boolean() })) },
    handler: async (request) => ok(await revokeShare(ctx(request), request.body.id, now())),
  });
  app.get('/v1/external/share', {
    config: { access: 'public', rateLimit: VISITOR_LIMIT },
    schema: {
      tags: shareTags,
      summary: '访客打开分享的数据（密码放在 X-Link-Password 请求头）',
      querystring: contracts.SharedRecordQuery,
      headers: z.object({ 'x-link-password': z.string().max(64).optional() }).passthrough(),
      response: env(contracts.SharedRecordResult),
    },
    handler: async (request) => {
      const password = request.headers['x-link-password'];
      return ok(await sharedRecord(deps.db, request.query, typeof password === 'string' ? password : undefined, now()));
    },
  });
  app.post('/v1/form/openquery/get', {
    config,
    schema: { tags: queryTags, summary: '表单的公开查询页', body: contracts.OpenQueryGetBody, response: env(contracts.OpenQueryResult) },
    handler: async (request) => ok(await getOpenQuery(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/form/openquery/save', {
    config,
    schema: { tags: queryTags, summary: '设置公开查询（访问方式、查询字段、结果字段、查询身份）', body: contracts.OpenQuerySaveBody, response: env(contracts.OpenQueryResult) },
    handler: async (request) => ok(await saveOpenQuery(ctx(request), request.body)),
  });
  app.post('/v1/form/openquery/reset', {
    config,
    schema: { tags: queryTags, summary: '重新生成查询链接（旧链接立即失效）', body: contracts.OpenQueryGetBody, response: env(contracts.OpenQueryResult) },
    handler: async (request) => ok(await resetOpenQuery(ctx(request), request.body.schemaCode)),
  });
  app.get('/v1/external/query', {
    config: { access: 'public', rateLimit: VISITOR_LIMIT },
    schema: {
      tags: queryTags,
      summary: '访客打开公开查询页（密码放在 X-Link-Password 请求头）',
      querystring: contracts.OpenQueryPageQuery,
      headers: z.object({ 'x-link-password': z.string().max(64).optional() }).passthrough(),
      response: env(contracts.OpenQueryPage),
    },
    handler: async (request) => {
      const password = request.headers['x-link-password'];
      return ok(await openQueryPage(deps.db, request.query, typeof password === 'string' ? password : undefined));
    },
  });
  app.post('/v1/external/query/code', {
    config: { access: 'public', rateLimit: VISITOR_LIMIT },
    schema: { tags: queryTags, summary: '身份验证查询：向访客手机发送验证码', body: contracts.OpenQueryCodeBody, response: env(z.object({ expiresIn: z.number(), resendAfter: z.number() })) },
    handler: async (request) => ok(await sendQueryCode(deps.db, deps.codes, request.body, request.ip)),
  });
  app.post('/v1/external/query', {
    config: { access: 'public', rateLimit: VISITOR_LIMIT },
    schema: { tags: queryTags, summary: '访客查询（按查询字段精确匹配，最多20条）', body: contracts.OpenQuerySearchBody, response: env(contracts.OpenQuerySearchResult) },
    handler: async (request) => ok(await searchOpenQuery(deps.db, deps.codes, request.body)),
  });
}
