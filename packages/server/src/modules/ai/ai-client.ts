import OpenAI from 'openai';
import { sql } from 'kysely';
import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { OutboundRefused } from '../../lib/outbound-http.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { countRequest } from '../operations/rate-limit-store.ts';
import { requireProvider, type AiProvider } from './ai-settings.ts';

// The one client of AI calls (docs/decisions/0124): the engine's OpenAI-compatible endpoint through the official
// `openai` package over the platform's guarded fetch (no loopback or private address unless the platform allows it).
// Before a call: the provider configured and on, the credit not used up, the person's calls this minute within the
// engine's rate (counted in the database, so every server process counts once). After it: a usage row and the tokens
// added to the engine's count in one statement each. The key never leaves: not to the browser, not into a log.

export interface AiDeps {
  db: Db;
  /** The guarded fetch (app.ts's `outbound`). */
  http: typeof fetch;
  timeoutMs?: number;
}

export interface AiCaller {
  engineCode: string;
  userId: string;
  /** What the call is for (chat, assistant, extraction…), kept in the usage log. */
  scene: string;
}

export type ChatTurn = contracts.ChatMessage;
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const RATE_WINDOW_MS = 60_000;

/** The provider for this call, after the engine's gates and the person's rate. */
async function admit(deps: AiDeps, edb: EngineExecutor, caller: AiCaller): Promise<AiProvider> {
  const provider = await requireProvider(deps.db, edb, caller.engineCode);
  const { current } = await countRequest(deps.db, `ai|${caller.engineCode}|${caller.userId}`, RATE_WINDOW_MS);
  if (current > provider.userCallsPerMinute) throw new AppError('AiRateLimited', { detail: { perMinute: provider.userCallsPerMinute } });
  return provider;
}

function clientOf(provider: AiProvider, deps: AiDeps): OpenAI {
  return new OpenAI({ apiKey: provider.apiKey, baseURL: provider.baseUrl.replace(/\/+$/, ''), fetch: deps.http, timeout: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxRetries: 1 });
}

/** The provider's failure as a catalogue error, with the key scrubbed from whatever text it sent back. */
function failureOf(error: unknown, provider: AiProvider): AppError {
  if (error instanceof AppError) return error;
  const scrub = (text: string) => (provider.apiKey ? text.split(provider.apiKey).join('******') : text).slice(0, 300);
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof OutboundRefused || error instanceof OutboundRefused) {
    return new AppError('OutsideAddressRefused', { detail: { host: new URL(provider.baseUrl).hostname } });
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new AppError('AiProviderUnreachable', { detail: { message: '请求超时' } });
  if (error instanceof OpenAI.APIConnectionError) return new AppError('AiProviderUnreachable', { detail: { message: scrub(String((cause as Error)?.message ?? error.message)) } });
  if (error instanceof OpenAI.APIError) return new AppError('AiProviderFailed', { detail: { message: scrub(`HTTP ${error.status ?? '?'} ${error.message}`) } });
  return new AppError('AiProviderFailed', { detail: { message: scrub(error instanceof Error ? error.message : String(error)) } });
}

/** One usage row, and the tokens added to the engine's count (one atomic update: concurrent calls all count). */
async function record(edb: EngineExecutor, caller: AiCaller, model: string, usage: Usage, started: number, error: AppError | null): Promise<void> {
  await edb
    .insertInto('ai_usage')
    .values({
      user_id: caller.userId,
      scene: caller.scene,
      model,
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.totalTokens,
      duration_ms: Math.round(performance.now() - started),
      ok: !error,
      error: error ? error.message.slice(0, 500) : null,
    })
    .execute();
  if (usage.totalTokens > 0) {
    await edb
      .updateTable('ai_settings')
      .set({ used_tokens: sql<number>`used_tokens + ${usage.totalTokens}` as unknown as number })
      .where('id', '=', 1)
      .execute();
  }
}

const NO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
const usageOf = (u: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined): Usage =>
  u ? { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0, totalTokens: u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0) } : NO_USAGE;

export interface ChatOptions {
  temperature?: number;
  maxTokens?: number;
  /** The engine's vision model instead of its chat model (the messages carry a picture). */
  vision?: boolean;
  /** Structured output (a JSON schema the answer must follow). */
  responseFormat?: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming['response_format'];
}

/** A whole answer of the engine's chat model. */
export async function chatComplete(deps: AiDeps, edb: EngineExecutor, caller: AiCaller, messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[], options: ChatOptions = {}): Promise<contracts.ChatCompletionResult> {
  const provider = await admit(deps, edb, caller);
  if (options.vision && !provider.visionModel) throw new AppError('AiVisionNotConfigured');
  const model = options.vision ? provider.visionModel : provider.chatModel;
  const started = performance.now();
  try {
    const answer = await clientOf(provider, deps).chat.completions.create({
      model,
      messages,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
      ...(options.responseFormat ? { response_format: options.responseFormat } : {}),
    });
    const usage = usageOf(answer.usage);
    await record(edb, caller, model, usage, started, null);
    const choice = answer.choices[0];
    return { model: answer.model || model, content: choice?.message?.content ?? '', finishReason: choice?.finish_reason ?? null, usage };
  } catch (error) {
    const failure = failureOf(error, provider);
    await record(edb, caller, model, NO_USAGE, started, failure);
    throw failure;
  }
}

export type StreamEvent =
  | { type: 'delta'; content: string }
  | { type: 'toolCalls'; calls: { id: string; name: string; arguments: string }[] }
  | { type: 'done'; usage: Usage; model: string };

/** The gates of a question (provider, credit, the person's rate): a question with several model calls counts once. */
export const admitAi = admit;

/**
 * The chat model's answer piece by piece, for a provider already admitted. The request is sent before this answers
 * (a refusal is thrown, nothing is sent to the browser); the usage is recorded when the stream ends, is stopped
 * (`signal`) or fails. Tool calls arrive in pieces and are answered whole, after the text. Providers that do not
 * report a stream's usage are counted by their text (about a token a Chinese character), so the credit still moves.
 */
export async function startStream(
  deps: AiDeps,
  edb: EngineExecutor,
  caller: AiCaller,
  provider: AiProvider,
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
  options: { signal?: AbortSignal; tools?: OpenAI.Chat.Completions.ChatCompletionTool[] } = {},
): Promise<AsyncGenerator<StreamEvent>> {
  const started = performance.now();
  const { signal, tools } = options;
  let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
  try {
    stream = await clientOf(provider, deps).chat.completions.create(
      { model: provider.chatModel, messages, stream: true, stream_options: { include_usage: true }, ...(tools?.length ? { tools } : {}) },
      { signal },
    );
  } catch (error) {
    const failure = failureOf(error, provider);
    await record(edb, caller, provider.chatModel, NO_USAGE, started, failure);
    throw failure;
  }
  const promptChars = messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content ?? '').length), 0);
  return (async function* () {
    let usage: Usage | null = null;
    let text = '';
    let failure: AppError | null = null;
    const calls: { id: string; name: string; arguments: string }[] = [];
    const counted = () => usage ?? { promptTokens: promptChars, completionTokens: text.length, totalTokens: promptChars + text.length };
    try {
      for await (const chunk of stream) {
        if (chunk.usage) usage = usageOf(chunk.usage);
        const delta = chunk.choices[0]?.delta;
        for (const call of delta?.tool_calls ?? []) {
          const slot = (calls[call.index] ??= { id: '', name: '', arguments: '' });
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name += call.function.name;
          if (call.function?.arguments) slot.arguments += call.function.arguments;
        }
        const piece = delta?.content;
        if (piece) {
          text += piece;
          yield { type: 'delta', content: piece } as const;
        }
      }
    } catch (error) {
      failure = signal?.aborted ? null : failureOf(error, provider);
      if (failure) throw failure;
    } finally {
      await record(edb, caller, provider.chatModel, counted(), started, failure);
    }
    if (calls.length) yield { type: 'toolCalls', calls: calls.filter(Boolean) } as const;
    yield { type: 'done', usage: counted(), model: provider.chatModel } as const;
  })();
}

/** A one-line call to check the settings (the settings page's 测试连接); recorded like any other. */
export async function testProvider(deps: AiDeps, edb: EngineExecutor, caller: AiCaller): Promise<contracts.AiTestResult> {
  const started = performance.now();
  const answer = await chatComplete(deps, edb, { ...caller, scene: 'test' }, [{ role: 'user', content: '请只回复“好”。' }], { maxTokens: 8 });
  return { ok: true, model: answer.model, reply: answer.content.slice(0, 200), durationMs: Math.round(performance.now() - started) };
}
