import { z } from 'zod';
import { RATE_LIMITS, type TypedApp } from '../../lib/route-types.ts';
import { AppError } from '../../lib/app-error.ts';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../lib/reply.ts';
import type { SignInDeps } from '../auth/sign-in.service.ts';
import { engineOf, nodeContextOf } from '../function-node/node-context.ts';
import { engineDb } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import { chatLogin, chatSettingView, DIRECTORY_SYNC_JOB, previewSync, saveChatSettings, syncLog } from './chat-sign-in.ts';
import { completeSso, loadSsoSettings, saveSsoSettings, ssoSettingView, startSso, SSO_CALLBACK_PATH } from './sso.service.ts';

const tags = ['第三方登录'];

const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/**
 * Sign-in through chat platforms, single sign-on and external links (calls.md §7 "Login and account"). Until an
 * engine configures a provider these answer 200901 (SSO: 208001) so the entry pages can say so plainly.
 */
export function integrationRoutes(app: TypedApp, deps: SignInDeps & { publicUrl?: string }): void {
  /** The callback address of this site: the configured public address, else the one the request came to. */
  const suggestedCallbackUrl = (request: FastifyRequest) => `${(deps.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '')}${SSO_CALLBACK_PATH}`;
  const adminEngine = (request: FastifyRequest) => {
    const node = nodeContextOf(request, deps.db);
    return { edb: engineOf(node), userId: node.userId };
  };
  const anyQuery = z.object({}).passthrough();
  const notConfigured = async () => {
    throw new AppError('IntegrationNotConfigured');
  };
  for (const kind of ['corp', 'app', 'oa'] as const) {
    app.get(`/v1/login/dingtalk/${kind}`, {
      config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
      schema: { tags, summary: `钉钉${{ corp: '企业', app: '应用', oa: '工作台' }[kind]}免登（临时授权码）`, querystring: contracts.ChatLoginQuery },
      handler: async (request) => ok(await chatLogin(deps, 'dingtalk', kind, request.query.engineCode, request.query.code)),
    });
  }
  app.get('/v1/sysintergration/chat/setting/load', {
    config: { access: 'admin' },
    schema: { tags, summary: '第三方平台应用设置（管理员；AppSecret 只显示是否已设置）', querystring: contracts.ChatSettingQuery, response: env(contracts.ChatSettingDto) },
    handler: async (request) => ok(await chatSettingView(adminEngine(request).edb, request.query.provider)),
  });
  app.post('/v1/sysintergration/chat/setting', {
    config: { access: 'admin' },
    schema: { tags, summary: '保存第三方平台应用设置；AppSecret 留空则保留', body: contracts.ChatSettingSaveBody, response: env(contracts.ChatSettingDto) },
    handler: async (request) => {
      const { edb, userId } = adminEngine(request);
      return ok(await saveChatSettings(edb, userId, request.body));
    },
  });
  app.post('/v1/sysintergration/directory/preview', {
    config: { access: 'admin' },
    schema: { tags, summary: '通讯录同步预览：将要新增、修改、停用的部门与人员（不做修改）', body: contracts.DirectorySyncBody, response: env(contracts.DirectorySyncSummary) },
    handler: async (request) => ok(await previewSync(deps.db, nodeContextOf(request, deps.db).engineCode, request.body.provider)),
  });
  app.post('/v1/sysintergration/directory/sync', {
    config: { access: 'admin' },
    schema: { tags, summary: '开始通讯录同步（后台任务）', body: contracts.DirectorySyncBody, response: env(contracts.DirectorySyncStarted) },
    handler: async (request) => {
      const node = nodeContextOf(request, deps.db);
      const jobId = await enqueueJob(deps.db, { engineCode: node.engineCode, kind: DIRECTORY_SYNC_JOB, payload: { provider: request.body.provider }, createdBy: node.userId });
      return ok({ jobId });
    },
  });
  app.get('/v1/sysintergration/directory/log', {
    config: { access: 'admin' },
    schema: { tags, summary: '通讯录同步记录', querystring: contracts.ChatSettingQuery, response: env(contracts.DirectorySyncLog) },
    handler: async (request) => ok(await syncLog(deps.db, nodeContextOf(request, deps.db).engineCode, request.query.provider)),
  });
  for (const url of ['/v1/login/wxwork/corp', '/v1/login/wechat/scan']) {
    app.get(url, { config: { access: 'public' }, schema: { tags, summary: '第三方平台登录（未配置）', querystring: anyQuery }, handler: notConfigured });
  }
  app.post('/v1/login/feishu/corp', { config: { access: 'public' }, schema: { tags, summary: '飞书登录（未配置）' }, handler: notConfigured });
  app.get('/v1/login/sso', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: {
      tags,
      summary: '单点登录：带 engineCode 时开始（返回身份提供方的登录地址），带 code 与 state 时完成（返回登录结果）',
      querystring: contracts.SsoLoginQuery,
    },
    handler: async (request) => {
      const q = request.query;
      if (q.state) return ok(await completeSso(deps, q));
      if (!q.engineCode) throw new AppError('SsoSettingMissing');
      return ok(await startSso(deps.db, q.engineCode, q.redirectUrl));
    },
  });
  app.get('/v1/sysintergration/sso/setting', {
    config: { access: 'public' },
    schema: { tags, summary: '组织是否启用单点登录（登录页读取）', querystring: contracts.SsoPublicSettingQuery, response: env(contracts.SsoPublicSetting) },
    handler: async (request) => {
      const engineCode = request.query.engineCode;
      if (!engineCode) return ok({ enabled: false });
      const engine = await deps.db.selectFrom('platform.engines').select('engine_code').where('engine_code', '=', engineCode).executeTakeFirst();
      const settings = engine ? await loadSsoSettings(engineDb(deps.db, engineCode)) : null;
      return ok({ enabled: !!settings?.enabled });
    },
  });
  app.get('/v1/sysintergration/sso/setting/load', {
    config: { access: 'admin' },
    schema: { tags, summary: '单点登录设置（管理员；客户端密钥只显示是否已设置）', response: env(contracts.SsoSettingDto) },
    handler: async (request) => ok(await ssoSettingView(adminEngine(request).edb, suggestedCallbackUrl(request))),
  });
  app.post('/v1/sysintergration/sso/setting', {
    config: { access: 'admin' },
    schema: { tags, summary: '保存单点登录设置；客户端密钥留空则保留原密钥', body: contracts.SsoSettingSaveBody, response: env(contracts.SsoSettingDto) },
    handler: async (request) => {
      const { edb, userId } = adminEngine(request);
      return ok(await saveSsoSettings(edb, userId, request.body, suggestedCallbackUrl(request)));
    },
  });
  app.post('/v1/external/login', {
    config: { access: 'public' },
    schema: { tags, summary: '外部链接登录（未配置）', body: contracts.ExternalLoginBody },
    handler: notConfigured,
  });
  app.get('/v1/token/exchange', { config: { access: 'public' }, schema: { tags, summary: '令牌交换（未配置）', querystring: anyQuery }, handler: notConfigured });
}
