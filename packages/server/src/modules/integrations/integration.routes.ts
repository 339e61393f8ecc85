import { z } from 'zod';
import { RATE_LIMITS, type TypedApp } from '../../lib/route-types.ts';
import { AppError } from '../../lib/app-error.ts';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../lib/reply.ts';
import { engineCodeHeader } from '../../plugins/auth.ts';
import { engineOf, inEngineTransaction, nodeContextOf } from '../function-node/node-context.ts';
import { engineDb } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import { chatLogin, chatSettingView, type ChatDeps, DIRECTORY_SYNC_JOB, previewSync, saveChatSettings, syncLog } from './chat-sign-in.ts';
import { allowedReturnTo, completeSso, loadSsoSettings, saveSsoSettings, ssoSettingView, startSso, switchedOnSettings, SSO_CALLBACK_PATH } from './sso.service.ts';
import { consumeSamlResponse, redeemSamlHandoff, samlMetadata, startSaml } from './saml.service.ts';
import { chatScanCallbackPath, completeChatScan, startChatScan } from './chat-scan.ts';
import { externalLogin } from './external-login.ts';
import { createExchangeCode, redeemExchangeCode } from './token-exchange.ts';
import { directoryCallbackPath, receiveChange } from './directory-events.ts';
import { bindMobile, sendBindCode, validateBindMobile } from './mobile-binding.ts';
import { completeWechatBinding, removeWechatBinding, startWechatBinding, wechatBinding, wechatBindingScene } from './wechat-binding.ts';
import { createShortcut, listShortcuts, removeShortcut, updateShortcut } from './dingtalk-shortcuts.ts';
import { accountPushPath, accountScanState, receiveAccountPush } from './wechat-account-scan.ts';
import type { ChatProviderName } from './providers/chat-provider.ts';

const tags = ['第三方登录'];

const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/**
 * Sign-in through chat platforms, single sign-on and external links (calls.md §7 "Login and account"). Until an
 * engine configures a provider these answer 200901 (SSO: 208001) so the entry pages can say so plainly.
 */
export function integrationRoutes(app: TypedApp, deps: ChatDeps & { publicUrl?: string }): void {
  /** This site's address: the configured public address, else the one the request came to. */
  const siteUrl = (request: FastifyRequest) => (deps.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
  const suggestedCallbackUrl = (request: FastifyRequest) => `${siteUrl(request)}${SSO_CALLBACK_PATH}`;
  const adminEngine = (request: FastifyRequest) => {
    const node = nodeContextOf(request, deps.db);
    return { edb: engineOf(node), userId: node.userId };
  };
  // WeChat's pushes are its official account's scans (decision 0097); the others' are directory changes.
  const directoryCallbackUrl = (request: FastifyRequest, provider: ChatProviderName) => {
    const engineCode = nodeContextOf(request, deps.db).engineCode;
    return `${siteUrl(request)}${provider === 'wechat' ? accountPushPath(engineCode) : directoryCallbackPath(provider, engineCode)}`;
  };
  for (const kind of ['corp', 'app', 'oa'] as const) {
    app.get(`/v1/login/dingtalk/${kind}`, {
      config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
      schema: { tags, summary: `钉钉${{ corp: '企业', app: '应用', oa: '工作台' }[kind]}免登（临时授权码）`, querystring: contracts.ChatLoginQuery },
      handler: async (request) => ok(await chatLogin(deps, 'dingtalk', kind, request.query.engineCode, request.query.code)),
    });
  }
  const platformNames: Record<ChatProviderName, string> = { dingtalk: '钉钉', wxwork: '企业微信', feishu: '飞书', wechat: '微信' };
  for (const provider of ['dingtalk', 'wxwork', 'feishu', 'wechat'] as const) {
    app.get(`/v1/login/${provider}/scan`, {
      config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
      schema: {
        tags,
        summary: `${platformNames[provider]}扫码登录：带 engineCode 时开始（返回平台的扫码页地址），带 code 与 state 时完成（返回登录结果）`,
        querystring: contracts.ChatScanQuery,
      },
      handler: async (request) => {
        const q = request.query;
        const callbackUrl = `${siteUrl(request)}${chatScanCallbackPath(provider)}`;
        if (q.state) return ok(await completeChatScan(deps, provider, q, callbackUrl));
        if (!q.engineCode) throw new AppError('ArgumentIsNull', { detail: { field: 'engineCode' } });
        return ok(await startChatScan(deps.db, deps.http, provider, q.engineCode, q.redirectUrl, callbackUrl));
      },
    });
  }
  app.get('/v1/login/wechat/scene', {
    // A page waiting for its scan asks about every 25 seconds (each ask waits for the push).
    config: { access: 'public', rateLimit: { max: 120, timeWindow: 60_000 } },
    schema: {
      tags,
      summary: '微信公众号扫码登录：扫码场景的状态（等待扫码时返回二维码，扫码后返回登录结果；仅限发起扫码的浏览器）',
      querystring: contracts.WechatSceneQuery,
      response: env(contracts.WechatSceneState),
    },
    handler: async (request) => ok(await accountScanState(deps, request.query)),
  });
  app.get('/v1/login/wxwork/corp', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '企业微信企业登录（企业微信客户端内 OAuth2 的 code）', querystring: contracts.ChatLoginQuery },
    handler: async (request) => ok(await chatLogin(deps, 'wxwork', 'corp', request.query.engineCode, request.query.code)),
  });
  app.post('/v1/login/feishu/corp', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '飞书企业登录（飞书客户端内取得的授权码）', body: contracts.ChatLoginBody },
    handler: async (request) => ok(await chatLogin(deps, 'feishu', 'corp', request.body.engineCode, request.body.code)),
  });
  app.get('/v1/shortcut/dingtalk', {
    config: { access: 'admin' },
    schema: { tags, summary: '钉钉快捷方式列表', response: env(contracts.DingtalkShortcutList) },
    handler: async (request) => {
      const node = nodeContextOf(request, deps.db);
      return ok(await listShortcuts(engineOf(node), node.engineCode, siteUrl(request)));
    },
  });
  app.post('/v1/shortcut/dingtalk', {
    config: { access: 'admin' },
    schema: { tags, summary: '新建钉钉快捷方式', body: contracts.DingtalkShortcutCreateBody },
    handler: async (request) => {
      const { edb, userId } = adminEngine(request);
      return ok(await createShortcut(edb, userId, request.body));
    },
  });
  app.put('/v1/shortcut/dingtalk', {
    config: { access: 'admin' },
    schema: { tags, summary: '修改钉钉快捷方式', body: contracts.DingtalkShortcutUpdateBody },
    handler: async (request) => ok(await updateShortcut(adminEngine(request).edb, request.body)),
  });
  app.post('/v1/shortcut/dingtalk/remove', {
    config: { access: 'admin' },
    schema: { tags, summary: '删除钉钉快捷方式', body: contracts.DingtalkShortcutRemoveBody },
    handler: async (request) => ok(await removeShortcut(adminEngine(request).edb, request.body.id)),
  });
  app.get('/v1/sysintergration/chat/setting/load', {
    config: { access: 'admin' },
    schema: { tags, summary: '第三方平台应用设置（管理员；AppSecret 只显示是否已设置）', querystring: contracts.ChatSettingQuery, response: env(contracts.ChatSettingDto) },
    handler: async (request) => ok(await chatSettingView(adminEngine(request).edb, request.query.provider, directoryCallbackUrl(request, request.query.provider))),
  });
  app.post('/v1/sysintergration/chat/setting', {
    config: { access: 'admin' },
    schema: { tags, summary: '保存第三方平台应用设置；AppSecret 留空则保留', body: contracts.ChatSettingSaveBody, response: env(contracts.ChatSettingDto) },
    handler: async (request) => {
      const node = nodeContextOf(request, deps.db);
      return ok(await inEngineTransaction(node, (edb) => saveChatSettings(edb, node, request.body, directoryCallbackUrl(request, request.body.provider))));
    },
  });
  app.post('/v1/sysintergration/directory/preview', {
    config: { access: 'admin' },
    schema: { tags, summary: '通讯录同步预览：将要新增、修改、停用的部门与人员（不做修改）', body: contracts.DirectorySyncBody, response: env(contracts.DirectorySyncSummary) },
    handler: async (request) => ok(await previewSync(deps.db, deps.http, nodeContextOf(request, deps.db).engineCode, request.body.provider)),
  });
  app.post('/v1/sysintergration/directory/sync', {
    config: { access: 'admin' },
    schema: { tags, summary: '开始通讯录同步（后台任务）', body: contracts.DirectorySyncBody, response: env(contracts.DirectorySyncStarted) },
    handler: async (request) => {
      const node = nodeContextOf(request, deps.db);
      const jobId = await enqueueJob(deps.db, { engineCode: node.engineCode, kind: DIRECTORY_SYNC_JOB, payload: { provider: request.body.provider, mode: request.body.mode ?? 'full' }, createdBy: node.userId });
      return ok({ jobId });
    },
  });
  // The platforms' change pushes (decisions 0077, 0089): their own scope reads every body as text, since the platforms
  // sign the exact text (Feishu) or send XML (WeCom); each platform's callbacks parse it. GET is WeCom's URL check.
  app.register(async (scope: TypedApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
    for (const method of ['GET', 'POST'] as const) {
      scope.route({
        method,
        url: '/v1/sysintergration/directory/callback/:provider/:engineCode',
        config: { access: 'public', rateLimit: { max: 600, timeWindow: 60_000 } },
        schema: {
          tags,
          summary:
            method === 'POST'
              ? '通讯录变更事件回调（由钉钉、企业微信、飞书推送；校验签名并解密，记录变更并排队增量同步）'
              : '通讯录变更回调地址校验（企业微信保存回调地址时发送；应答解密后的 echostr）',
          params: z.strictObject({ provider: contracts.ChatProviderName, engineCode: z.string().min(1).max(64) }),
          querystring: z
            .object({ msg_signature: z.string().max(200).optional(), signature: z.string().max(200).optional(), timestamp: z.string().max(40).optional(), nonce: z.string().max(100).optional(), echostr: z.string().max(2000).optional() })
            .passthrough(),
        },
        // The platform reads the answer as its own protocol's, not the API envelope.
        handler: async (request) =>
          receiveChange(deps.db, request.params.engineCode, request.params.provider, {
            method,
            query: request.query as Record<string, string | undefined>,
            headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value])),
            body: typeof request.body === 'string' ? request.body : '',
          }),
      });
    }
  });
  // The official account's server pushes (decision 0097): XML bodies, signed in the query; the answer is plain text.
  app.register(async (scope: TypedApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
    for (const method of ['GET', 'POST'] as const) {
      scope.route({
        method,
        url: '/v1/sysintergration/wechat/push/:engineCode',
        config: { access: 'public', rateLimit: { max: 600, timeWindow: 60_000 } },
        schema: {
          tags,
          summary: method === 'POST' ? '微信公众号消息推送（扫码与关注事件；校验签名，安全模式解密，标记扫码场景）' : '微信公众号服务器地址校验（应答 echostr）',
          params: z.strictObject({ engineCode: z.string().min(1).max(64) }),
          querystring: z
            .object({
              signature: z.string().max(200).optional(),
              msg_signature: z.string().max(200).optional(),
              timestamp: z.string().max(40).optional(),
              nonce: z.string().max(100).optional(),
              echostr: z.string().max(2000).optional(),
              encrypt_type: z.string().max(20).optional(),
            })
            .passthrough(),
        },
        handler: async (request, reply) =>
          reply.type('text/plain; charset=utf-8').send(
            await receiveAccountPush(deps.db, request.params.engineCode, {
              method,
              query: request.query as Record<string, string | undefined>,
              headers: {},
              body: typeof request.body === 'string' ? request.body : '',
            }),
          ),
      });
    }
  });
  app.get('/v1/sysintergration/directory/log', {
    config: { access: 'admin' },
    schema: { tags, summary: '通讯录同步记录', querystring: contracts.ChatSettingQuery, response: env(contracts.DirectorySyncLog) },
    handler: async (request) => ok(await syncLog(deps.db, nodeContextOf(request, deps.db).engineCode, request.query.provider)),
  });
  app.get('/v1/login/sso', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: {
      tags,
      summary: '单点登录：带 engineCode 时开始（返回身份提供方的登录地址），带 code 与 state 时完成（返回登录结果）',
      querystring: contracts.SsoLoginQuery,
    },
    handler: async (request) => {
      const q = request.query;
      if (q.saml) return ok(await redeemSamlHandoff(deps, q.saml, q.key));
      if (q.state) return ok(await completeSso(deps, q));
      if (!q.engineCode) throw new AppError('SsoSettingMissing');
      const { protocol } = await switchedOnSettings(deps.db, q.engineCode);
      return ok(protocol === 'saml' ? await startSaml(deps.db, q.engineCode, q.redirectUrl) : await startSso(deps.db, deps.http, q.engineCode, q.redirectUrl));
    },
  });
  // SAML (docs/decisions/0087): the identity provider posts a form, so this scope reads that content type.
  app.register(async (scope: TypedApp) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    scope.post('/v1/login/sso/saml/:engineCode/acs', {
      config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
      schema: {
        tags,
        summary: 'SAML 断言消费地址（身份提供方以 HTTP-POST 提交 SAMLResponse；校验后转到登录回调页，带一次性代码）',
        params: contracts.SamlEngineParams,
        body: contracts.SamlAcsBody,
      },
      // Only a path of this site, never an address the answer names.
      handler: async (request, reply) => reply.redirect(await consumeSamlResponse(deps.db, request.params.engineCode, request.body), 303),
    });
  });
  app.get('/v1/login/sso/saml/:engineCode/metadata', {
    config: { access: 'public' },
    schema: { tags, summary: '本平台的 SAML 元数据（SP metadata XML，供身份提供方登记）', params: contracts.SamlEngineParams },
    handler: async (request, reply) =>
      reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="tritium-saml-${request.params.engineCode}.xml"`)
        .send(await samlMetadata(deps.db, request.params.engineCode)),
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
    handler: async (request) => ok(await ssoSettingView(adminEngine(request).edb, nodeContextOf(request, deps.db).engineCode, suggestedCallbackUrl(request))),
  });
  app.post('/v1/sysintergration/sso/setting', {
    config: { access: 'admin' },
    schema: { tags, summary: '保存单点登录设置；客户端密钥留空则保留原密钥', body: contracts.SsoSettingSaveBody, response: env(contracts.SsoSettingDto) },
    handler: async (request) => {
      const node = nodeContextOf(request, deps.db);
      return ok(await inEngineTransaction(node, (edb) => saveSsoSettings(edb, node.engineCode, node, request.body, suggestedCallbackUrl(request))));
    },
  });
  app.post('/v1/account/sendmobileverifycode', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '绑定手机号：发送验证码（需第三方登录给出的 securityToken）', body: contracts.BindMobileCodeBody, response: env(contracts.SendVerifyCodeResult) },
    handler: async (request) => ok(await sendBindCode(deps, request.body, request.ip)),
  });
  app.post('/Account/ValidateMobile', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '绑定手机号：该组织是否有此手机号的成员', body: contracts.BindMobileCodeBody, response: env(contracts.ValidateMobileResult) },
    handler: async (request) => ok(await validateBindMobile(deps, request.body)),
  });
  app.post('/v1/account/bindmobile', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '绑定手机号并登录（第三方平台未提供手机号时）', body: contracts.BindMobileBody },
    handler: async (request) => ok(await bindMobile(deps, request.body)),
  });
  app.get('/v1/account/wechat/binding', {
    config: { access: 'engine' },
    schema: { tags, summary: '我的微信绑定（个人微信扫码登录用）', response: env(contracts.WechatBinding) },
    handler: async (request) => ok(await wechatBinding(nodeContextOf(request, deps.db))),
  });
  app.post('/v1/account/wechat/binding/start', {
    config: { access: 'engine', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '绑定微信：开始扫码（返回微信的扫码页地址；扫码后回到 /entry/register/wechat）' },
    handler: async (request) => ok(await startWechatBinding(nodeContextOf(request, deps.db), deps.http, siteUrl(request))),
  });
  app.post('/v1/account/wechat/binding', {
    config: { access: 'engine', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '绑定微信：完成（微信带回的 code 与 state）', body: contracts.WechatBindBody, response: env(contracts.WechatBinding) },
    handler: async (request) => ok(await completeWechatBinding(nodeContextOf(request, deps.db), deps.http, siteUrl(request), request.body)),
  });
  app.get('/v1/account/wechat/binding/scene', {
    config: { access: 'engine', rateLimit: { max: 120, timeWindow: 60_000 } },
    schema: {
      tags,
      summary: '绑定微信（公众号扫码）：扫码场景的状态（等待扫码时返回二维码，扫码后绑定并返回绑定情况；仅限发起的用户）',
      querystring: contracts.WechatBindSceneQuery,
      response: env(contracts.WechatBindSceneState),
    },
    handler: async (request) => ok(await wechatBindingScene(nodeContextOf(request, deps.db), deps.http, request.query)),
  });
  app.post('/v1/account/wechat/binding/remove', {
    config: { access: 'engine' },
    schema: { tags, summary: '解除微信绑定', response: env(contracts.WechatBinding) },
    handler: async (request) => ok(await removeWechatBinding(nodeContextOf(request, deps.db))),
  });
  app.post('/v1/external/login', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '外部登录码登录（码由开放接口 CreateExternalLoginCode 签发，一次有效）', body: contracts.ExternalLoginBody },
    handler: async (request) => ok(await externalLogin(deps, request.body)),
  });
  app.get('/v1/token/exchange', {
    config: { access: 'optional', rateLimit: RATE_LIMITS.signIn },
    schema: {
      tags,
      summary: '令牌交换：已登录时换取一次性交换码（60 秒），带 code 时用交换码换取同一账号、同一组织的新会话',
      querystring: contracts.TokenExchangeQuery,
    },
    handler: async (request) => {
      if (request.query.code) return ok(await redeemExchangeCode(deps, request.query.code));
      const engineCode = engineCodeHeader(request);
      // Where to go afterwards: a path of this site only (208006 otherwise), checked before a code is made.
      const returnTo = allowedReturnTo(request.query.redirectUrl, `${siteUrl(request)}/`) ?? undefined;
      return ok(await createExchangeCode(deps, request.actor ?? undefined, engineCode, returnTo));
    },
  });
}
