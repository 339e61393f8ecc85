import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';
import { apiStream, serverEvents } from '../../lib/api-stream.ts';

// The engine's AI provider (administrators) and the chat over it (members) (issue 45, docs/decisions/0124).

export const aiKeys = {
  status: ['ai', 'status'] as const,
  settings: ['ai', 'settings'] as const,
  usage: (page: number) => ['ai', 'usage', page] as const,
};

export const aiApi = {
  status: () => apiClient.get<contracts.AiStatusDto>('/v1/ai/status'),
  settings: () => apiClient.get<contracts.AiSettingsDto>('/v1/ai/settings'),
  save: (body: contracts.AiSettingsSaveBody) => apiClient.post<contracts.AiSettingsDto>('/v1/ai/settings/save', body),
  test: () => apiClient.post<contracts.AiTestResult>('/v1/ai/settings/test'),
  extract: (body: contracts.FormExtractionBody) => apiClient.post<contracts.FormExtractionResult>('/v1/ai-service/agent/form/extraction', body, { timeoutMs: 90_000 }),
  /** An app from a description (docs/decisions/0126): the model's proposal, then its creation. */
  proposeApp: (body: contracts.AppProposalBody) => apiClient.post<contracts.AppProposalResult>('/v1/ai-service/app/proposal', body, { timeoutMs: 120_000 }),
  createApp: (body: contracts.AppCreateBody) => apiClient.post<contracts.AppCreateResult>('/v1/ai-service/app/create', body, { timeoutMs: 120_000 }),
  usage: (pageIndex: number, pageSize = 20) => apiClient.get<contracts.AiUsageListResult>('/v1/ai/usage/list', { query: { pageIndex, pageSize } }),
};

export type ChatEvent =
  | { event: 'delta'; data: { content: string } }
  | { event: 'tool'; data: { name: string } }
  | { event: 'cite'; data: { citations: { schemaCode: string; objectId: string; title: string }[] } }
  | { event: 'draft'; data: contracts.RecordDraft }
  | { event: 'done'; data: { usage: contracts.AiUsageDto } }
  | { event: 'error'; data: { code: number; message: string } };

/** The assistant's answer as it is written: each event of the stream, until `done` or `error`. */
export async function* streamChat(body: contracts.StreamChatBody, signal: AbortSignal): AsyncGenerator<ChatEvent> {
  const reader = await apiStream('/v1/ai-service/stream-chat', body, signal);
  try {
    for await (const event of serverEvents(reader)) yield event as ChatEvent;
  } finally {
    reader.releaseLock();
  }
}
