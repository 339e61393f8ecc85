import { contracts, errorText, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { AppError } from '../../lib/app-error.ts';
import { localeOf } from '../../lib/locale.ts';
import { openEventStream } from '../../lib/event-stream.ts';
import { ok } from '../../lib/reply.ts';
import { isAdministrator } from '../function-node/function-node.policy.ts';
import { engineOf, inEngineTransaction, nodeContextOf, viewerOf } from '../function-node/node-context.ts';
import { admitAi, chatComplete, startStream, testProvider, type AiDeps, type StreamEvent } from './ai-client.ts';
import { runAssistant, type AssistantEvent } from './assistant.ts';
import { aiStatus, followSwitch, readAiSettings, saveAiSettings } from './ai-settings.ts';
import { listUsage } from './ai-usage.ts';
import { extractForm } from './form-extraction.ts';
import { createAppFromProposal, proposeApp } from './app-create.ts';
import type { FileStore } from '../files/file-store.ts';

const tags = ['AI'];
const admin = { access: 'admin' } as const;
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** The engine's AI provider, its usage and credit (administrators), and the chat calls (members). */
export function aiRoutes(app: TypedApp, deps: { db: Db; http: typeof fetch; store: FileStore; timeoutMs?: number }): void {
  const ai: AiDeps = { db: deps.db, http: deps.http, timeoutMs: deps.timeoutMs };
  const node = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  app.get('/v1/ai/settings', {
    config: admin,
    schema: { tags, summary: 'AI 设置（密钥只显示是否已设置）', response: env(contracts.AiSettingsDto) },
    handler: async (request) => ok(await readAiSettings(engineOf(node(request)))),
  });
  app.post('/v1/ai/settings/save', {
    config: admin,
    schema: { tags, summary: '保存 AI 设置', body: contracts.AiSettingsSaveBody, response: env(contracts.AiSettingsDto) },
    handler: async (request) => {
      const ctx = node(request);
      const saved = await inEngineTransaction(ctx, (edb) => saveAiSettings(edb, ctx, request.body));
      await followSwitch(deps.db, ctx.engineCode, request.body.enabled, ctx);
      return ok(saved);
    },
  });
  app.post('/v1/ai/settings/test', {
    config: admin,
    schema: { tags, summary: '测试 AI 连接（发送一条很短的消息）', response: env(contracts.AiTestResult) },
    handler: async (request) => {
      const ctx = node(request);
      return ok(await testProvider(ai, engineOf(ctx), { engineCode: ctx.engineCode, userId: ctx.userId, scene: 'test' }));
    },
  });
  app.get('/v1/ai/usage/list', {
    config: admin,
    schema: { tags, summary: 'AI 调用记录', querystring: contracts.AiUsageQuery, response: env(contracts.AiUsageListResult) },
    handler: async (request) => ok(await listUsage(engineOf(node(request)), request.query)),
  });
  app.get('/v1/ai/usage/credit', {
    config: admin,
    schema: { tags, summary: 'AI 剩余额度', response: env(contracts.AiCreditDto) },
    handler: async (request) => {
      const settings = await readAiSettings(engineOf(node(request)));
      return ok({ quotaTokens: settings.quotaTokens, usedTokens: settings.usedTokens, remainingTokens: settings.remainingTokens });
    },
  });
  app.get('/v1/ai/status', {
    config: engine,
    schema: { tags, summary: 'AI 功能是否可用（管理员可见原因）', response: env(contracts.AiStatusDto) },
    handler: async (request) => {
      const ctx = node(request);
      const edb = engineOf(ctx);
      return ok(await aiStatus(deps.db, edb, ctx.engineCode, isAdministrator(await viewerOf(edb, ctx))));
    },
  });

  app.post('/v1/openai/chat/completions', {
    config: engine,
    schema: { tags, summary: '对话补全（使用组织配置的模型和额度）', body: contracts.ChatCompletionBody, response: env(contracts.ChatCompletionResult) },
    handler: async (request) => {
      const ctx = node(request);
      const { messages, temperature, maxTokens, scene } = request.body;
      return ok(await chatComplete(ai, engineOf(ctx), { engineCode: ctx.engineCode, userId: ctx.userId, scene }, messages, { temperature, maxTokens }));
    },
  });

  app.post('/v1/ai-service/agent/form/extraction', {
    config: engine,
    schema: { tags, summary: '智能填单：从文字或图片中识别表单字段的值（不保存）', body: contracts.FormExtractionBody, response: env(contracts.FormExtractionResult) },
    handler: async (request) => ok(await extractForm({ ...ai, store: deps.store }, node(request), request.body)),
  });

  // An app from a description (docs/decisions/0126): the proposal (nothing stored), then its creation through the designers' services.
  app.post('/v1/ai-service/app/proposal', {
    config: engine,
    schema: { tags, summary: 'AI 生成应用：根据描述给出应用方案（不保存）', body: contracts.AppProposalBody, response: env(contracts.AppProposalResult) },
    handler: async (request) => ok(await proposeApp(ai, node(request), request.body)),
  });
  app.post('/v1/ai-service/app/create', {
    config: engine,
    schema: { tags, summary: 'AI 生成应用：按（修改后的）方案创建应用、表单、列表、流程和仪表盘', body: contracts.AppCreateBody, response: env(contracts.AppCreateResult) },
    handler: async (request) => ok(await createAppFromProposal(node(request), request.body)),
  });

  // Server-sent events: `delta` {content} as the model writes, then `done` {usage} or `error` {code, message}. The
  // gates (provider, credit, rate) answer before the stream opens, as an ordinary error envelope.
  app.post('/v1/ai-service/stream-chat', {
    config: engine,
    schema: { tags, summary: '流式对话（text/event-stream）', body: contracts.StreamChatBody },
    handler: async (request, reply) => {
      const ctx = node(request);
      const body = request.body;
      if (body.engineCode !== ctx.engineCode || body.userId !== ctx.userId) throw new AppError('AiIdentityMismatch');
      const abort = new AbortController();
      const edb = engineOf(ctx);
      const caller = { engineCode: ctx.engineCode, userId: ctx.userId, scene: body.sceneId };
      const turns = [...body.history, { role: 'user' as const, content: body.message }];
      // The gates answer before the stream opens, once per question.
      const provider = await admitAi(ai, edb, caller);
      const events: AsyncGenerator<AssistantEvent | StreamEvent> =
        body.sceneId === 'assistant'
          ? runAssistant(ai, ctx, provider, turns, await engineNameOf(deps.db, ctx.engineCode), abort.signal)
          : await startStream(ai, edb, caller, provider, turns, { signal: abort.signal });
      openEventStream(reply, request.id);
      const send = (event: string, data: unknown) => reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      // Stopped by the browser: the provider's request is cancelled and what was used is still recorded.
      reply.raw.on('close', () => abort.abort());
      try {
        for await (const event of events) {
          if (abort.signal.aborted) break;
          if (event.type === 'delta') send('delta', { content: event.content });
          else if (event.type === 'tool') send('tool', { name: event.name });
          else if (event.type === 'cite') send('cite', { citations: event.citations });
          else if (event.type === 'draft') send('draft', event.draft);
          else if (event.type === 'done') send('done', { usage: event.usage, model: event.model });
        }
      } catch (error) {
        const failure = error instanceof AppError ? error : new AppError('AiProviderFailed', { detail: { message: '未知错误' } });
        const detail = failure.detail !== null && typeof failure.detail === 'object' ? (failure.detail as Record<string, unknown>) : undefined;
        if (!abort.signal.aborted) send('error', { code: failure.code, message: errorText(failure.errorName, localeOf(request), detail) });
      } finally {
        reply.raw.end();
      }
    },
  });
}

async function engineNameOf(db: Db, engineCode: string): Promise<string> {
  const row = await db.selectFrom('platform.engines').select('engine_name').where('engine_code', '=', engineCode).executeTakeFirst();
  return row?.engine_name ?? engineCode;
}
