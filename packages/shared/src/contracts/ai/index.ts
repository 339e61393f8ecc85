import { z } from 'zod';

// The engine's AI provider and the calls over it (issue 45; docs/decisions/0124). Any OpenAI-compatible endpoint; the
// key is write-only (answers carry `hasKey`); a token credit per engine and a per-person call rate guard the spend.

const HttpUrl = z.url({ protocol: /^https?$/, error: '请输入以 http:// 或 https:// 开头的地址' }).max(2000);
const Model = z.string().trim().min(1, '请输入模型名称').max(200);

/** The bounds an administrator sets within. */
export const AI_BOUNDS = {
  /** Largest picture the vision model is sent, in MB. */
  imageMb: 8,
  userCallsPerMinute: { min: 1, max: 600, default: 20 },
  /** Longest message of a chat turn, in characters. */
  messageChars: 8000,
  /** Most messages in one completion request. */
  messages: 50,
} as const;

export const AiSettingsSaveBody = z.strictObject({
  baseUrl: HttpUrl,
  /** Left out (or empty): the stored key stays. */
  apiKey: z.string().max(4000).optional(),
  chatModel: Model,
  visionModel: z.string().trim().max(200).default(''),
  enabled: z.boolean().default(true),
  /** Tokens the engine may use in all; null: no limit. Saving a new credit starts the count again. */
  quotaTokens: z.number().int().min(0).max(1e12).nullable().default(null),
  userCallsPerMinute: z.number().int().min(AI_BOUNDS.userCallsPerMinute.min).max(AI_BOUNDS.userCallsPerMinute.max).default(AI_BOUNDS.userCallsPerMinute.default),
});
export type AiSettingsSaveBody = z.infer<typeof AiSettingsSaveBody>;

export const AiSettingsDto = z.object({
  configured: z.boolean(),
  baseUrl: z.string(),
  hasKey: z.boolean(),
  chatModel: z.string(),
  visionModel: z.string(),
  enabled: z.boolean(),
  quotaTokens: z.number().nullable(),
  usedTokens: z.number(),
  /** quotaTokens − usedTokens (never below 0); null without a limit. */
  remainingTokens: z.number().nullable(),
  userCallsPerMinute: z.number().int(),
  updatedTime: z.string().nullable(),
});
export type AiSettingsDto = z.infer<typeof AiSettingsDto>;

/** Whether AI features show for the caller, and (for administrators) why not. */
export const AiStatusDto = z.object({
  available: z.boolean(),
  reason: z.enum(['notConfigured', 'disabled', 'switchOff', 'quotaExhausted']).nullable(),
  isAdmin: z.boolean(),
});
export type AiStatusDto = z.infer<typeof AiStatusDto>;

export const AiTestResult = z.object({ ok: z.boolean(), model: z.string(), reply: z.string(), durationMs: z.number() });
export type AiTestResult = z.infer<typeof AiTestResult>;

export const AiUsageQuery = z.strictObject({
  pageIndex: z.coerce.number().int().min(0).max(100000).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const AiUsageDto = z.object({
  id: z.string(),
  at: z.string(),
  userId: z.string(),
  userName: z.string(),
  scene: z.string(),
  model: z.string(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  totalTokens: z.number().int(),
  durationMs: z.number().int(),
  ok: z.boolean(),
  error: z.string().nullable(),
});
export type AiUsageDto = z.infer<typeof AiUsageDto>;
export const AiUsageListResult = z.object({ items: z.array(AiUsageDto), total: z.number().int() });
export type AiUsageListResult = z.infer<typeof AiUsageListResult>;

export const AiCreditDto = z.object({ quotaTokens: z.number().nullable(), usedTokens: z.number(), remainingTokens: z.number().nullable() });
export type AiCreditDto = z.infer<typeof AiCreditDto>;

const ChatText = z.string().max(AI_BOUNDS.messageChars, `单条消息最多 ${AI_BOUNDS.messageChars} 个字`);
export const ChatMessage = z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: ChatText });
export type ChatMessage = z.infer<typeof ChatMessage>;

/** POST /v1/openai/chat/completions: the engine's chat model, key and credit; the model is the engine's, never the caller's. */
export const ChatCompletionBody = z.strictObject({
  messages: z.array(ChatMessage).min(1, '请输入消息').max(AI_BOUNDS.messages),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().min(1).max(8000).optional(),
  /** What the call is for, kept in the usage log. */
  scene: z.string().trim().regex(/^[A-Za-z0-9_.-]{1,40}$/).default('chat'),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

export const ChatUsage = z.object({ promptTokens: z.number().int(), completionTokens: z.number().int(), totalTokens: z.number().int() });
export const ChatCompletionResult = z.object({ model: z.string(), content: z.string(), finishReason: z.string().nullable(), usage: ChatUsage });
export type ChatCompletionResult = z.infer<typeof ChatCompletionResult>;

/** POST /v1/ai-service/stream-chat (calls.md): answered as server-sent events `delta`, then `done` or `error`. */
export const StreamChatBody = z.strictObject({
  engineCode: z.string().min(1).max(64),
  userId: z.string().min(1).max(64),
  sceneId: z.string().trim().regex(/^[A-Za-z0-9_.-]{1,40}$/, '场景编码只能包含字母、数字和 _ . -'),
  message: ChatText.min(1, '请输入消息'),
  /** The turns before this one, oldest first (the browser keeps the conversation). */
  history: z.array(ChatMessage).max(AI_BOUNDS.messages).default([]),
});
export type StreamChatBody = z.infer<typeof StreamChatBody>;

/** POST /v1/ai-service/agent/form/extraction: a pasted text or a picture to the form's field values (nothing is saved). */
export const FormExtractionBody = z
  .strictObject({
    schemaCode: z.string().min(1).max(64),
    text: z.string().trim().max(20000, '文字最多 20000 个字').optional(),
    /** A picture the person uploaded (scene ocrImage): read by the engine's vision model. */
    fileId: z.uuid({ error: '无效的文件 id' }).optional(),
  })
  .refine((body) => !!body.text || !!body.fileId, { message: '请粘贴要识别的文字', path: ['text'] });
export type FormExtractionBody = z.infer<typeof FormExtractionBody>;

export const FormExtractionResult = z.object({
  /** Main-table values that passed the same checks as a save, by control code. */
  values: z.record(z.string(), z.unknown()),
  /** Sub-table rows by grid code (only rows with a value). */
  children: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  /** The codes filled (a grid's code when it has rows). */
  filled: z.array(z.string()),
  /** Values the model gave that did not pass, left out. */
  issues: z.array(z.object({ field: z.string(), message: z.string() })),
});
export type FormExtractionResult = z.infer<typeof FormExtractionResult>;
export * from './app-proposal.ts';
