import type OpenAI from 'openai';
import type { contracts } from '@tritium/shared';
import type { NodeContext } from '../function-node/node-context.ts';
import { engineOf } from '../function-node/node-context.ts';
import { startStream, type AiDeps, type Usage } from './ai-client.ts';
import type { AiProvider } from './ai-settings.ts';
import { ASSISTANT_TOOLS, runAssistantTool, type Citation } from './assistant-tools.ts';

// The assistant over the organisation's data (docs/decisions/0124): the model answers a question by calling tools
// that run as the person asking (assistant-tools.ts), a few rounds at most, its text streamed as it is written. The
// records the tools read are sent to the browser as citations; the answer never comes from anything else the server
// holds. Nothing is saved by the assistant.

export type AssistantEvent =
  | { type: 'delta'; content: string }
  | { type: 'tool'; name: string }
  | { type: 'cite'; citations: Citation[] }
  | { type: 'draft'; draft: contracts.RecordDraft }
  | { type: 'done'; usage: Usage; model: string };

const ROUNDS_MAX = 6;
const TOOL_ANSWER_MAX_CHARS = 12_000;
const CITATIONS_MAX = 20;

function systemPrompt(engineName: string, now: Date): string {
  const today = new Intl.DateTimeFormat('zh-CN', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return [
    `你是组织「${engineName}」的数据助手，用中文简洁地回答。今天是 ${today}（北京时间）。`,
    '回答关于业务数据的问题时，只依据工具返回的结果：先用 list_forms 找到表单，用 describe_form 了解字段编码，再用 find_records 或 aggregate 查询。',
    '工具按提问人的权限运行，看不到的数据就是没有权限，不要猜测或编造；查询不到时如实说明。',
    '金额保留两位小数；提到具体记录时给出记录标题。',
    '用户要新建或起草记录时，先用 describe_form 查看字段，再调用 draft_record 填写草稿；草稿由用户核对后自行保存，你不能保存数据。',
  ].join('\n');
}

/**
 * Answers a question over the person's data. `provider` has passed the gates (once per question); each model call
 * is logged and counted as it ends.
 */
export async function* runAssistant(
  deps: AiDeps,
  ctx: NodeContext,
  provider: AiProvider,
  turns: contracts.ChatMessage[],
  engineName: string,
  signal: AbortSignal,
): AsyncGenerator<AssistantEvent> {
  const edb = engineOf(ctx);
  const caller = { engineCode: ctx.engineCode, userId: ctx.userId, scene: 'assistant' };
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt(engineName, new Date()) }, ...turns];
  const total: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const cited = new Map<string, Citation>();
  for (let round = 0; round < ROUNDS_MAX; round += 1) {
    // The last round offers no tools: the model must answer with what it has.
    const tools = round < ROUNDS_MAX - 1 ? ASSISTANT_TOOLS : undefined;
    const events = await startStream(deps, edb, caller, provider, messages, { signal, tools });
    let text = '';
    let calls: { id: string; name: string; arguments: string }[] = [];
    for await (const event of events) {
      if (event.type === 'delta') {
        text += event.content;
        yield event;
      } else if (event.type === 'toolCalls') calls = event.calls;
      else {
        total.promptTokens += event.usage.promptTokens;
        total.completionTokens += event.usage.completionTokens;
        total.totalTokens += event.usage.totalTokens;
      }
    }
    if (!calls.length || signal.aborted) break;
    messages.push({ role: 'assistant', content: text || null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) });
    for (const call of calls) {
      yield { type: 'tool', name: call.name };
      const outcome = await runAssistantTool(ctx, call.name, call.arguments);
      const fresh = outcome.citations.filter((c) => !cited.has(c.objectId) && cited.size < CITATIONS_MAX);
      for (const c of fresh) cited.set(c.objectId, c);
      if (fresh.length) yield { type: 'cite', citations: fresh };
      if (outcome.draft) yield { type: 'draft', draft: outcome.draft };
      const answer = JSON.stringify(outcome.result);
      // Cut, it would be broken JSON: the model is asked to narrow its question instead.
      messages.push({ role: 'tool', tool_call_id: call.id, content: answer.length > TOOL_ANSWER_MAX_CHARS ? JSON.stringify({ error: '结果过长，请缩小查询范围或减少返回的记录数' }) : answer });
    }
  }
  yield { type: 'done', usage: total, model: provider.chatModel };
}
