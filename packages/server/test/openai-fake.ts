import { serveFake, bodyOf, sendJson as json } from './fake-http.ts';

// A fake OpenAI-compatible endpoint (docs/decisions/0124): it checks the bearer key as the real service does (401 with
// its error shape otherwise), answers /v1/chat/completions whole or as server-sent chunks (the usage in a last chunk
// when `stream_options.include_usage` asks), returns tool calls when a test scripts them, and counts tokens the same
// way for both: a token a character of the prompt's messages and of the answer. Scripted answers are used in order;
// without one, it answers `收到：<the last user message>`.

export const OPENAI_KEY = 'sk-fake-0123456789abcdefghijklmnop';

export interface ScriptedAnswer {
  content?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  /** Answer this HTTP status with the service's error shape instead. */
  status?: number;
}

export interface OpenAiFake {
  url: string;
  /** Every chat request's parsed body, with the key it carried. */
  requests: { body: Record<string, unknown>; authorization: string | undefined }[];
  script: ScriptedAnswer[];
  /** Delay between streamed chunks (a browser test watches the text grow). */
  chunkDelayMs: number;
  close(): Promise<void>;
}

type Message = { role: string; content: string | null };

/** Splits an answer into pieces of two characters (by code point), as a model's tokens arrive. */
const piecesOf = (text: string) => {
  const chars = [...text];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += 2) pieces.push(chars.slice(i, i + 2).join(''));
  return pieces;
};

export async function startOpenAiFake(): Promise<OpenAiFake> {
  const fake: Omit<OpenAiFake, 'url' | 'close'> = { requests: [], script: [], chunkDelayMs: 0 };
  const served = await serveFake(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${OPENAI_KEY}`) {
      return json(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return json(res, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    const body = JSON.parse(await bodyOf(req)) as { model: string; messages: Message[]; stream?: boolean; stream_options?: { include_usage?: boolean } };
    fake.requests.push({ body, authorization: req.headers.authorization });
    const scripted = fake.script.shift();
    if (scripted?.status) return json(res, scripted.status, { error: { message: `scripted failure ${scripted.status}`, type: 'server_error' } });
    const lastUser = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const content = scripted?.toolCalls ? null : (scripted?.content ?? `收到：${lastUser}`);
    const promptTokens = body.messages.reduce((n, m) => n + [...(m.content ?? '')].length, 0);
    const completionTokens = [...(content ?? '')].length + (scripted?.toolCalls?.reduce((n, c) => n + c.arguments.length, 0) ?? 0);
    const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
    const toolCalls = scripted?.toolCalls?.map((c, index) => ({ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
    const finish = toolCalls ? 'tool_calls' : 'stop';
    const base = { id: `chatcmpl-${fake.requests.length}`, created: Math.floor(Date.now() / 1000), model: body.model };
    if (!body.stream) {
      return json(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: finish }], usage });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (chunk: unknown) => res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...(chunk as object) })}\n\n`);
    send({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    if (toolCalls) send({ choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: null }] });
    for (const piece of piecesOf(content ?? '')) {
      if (fake.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, fake.chunkDelayMs));
      if (res.destroyed) return;
      send({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    }
    send({ choices: [{ index: 0, delta: {}, finish_reason: finish }] });
    if (body.stream_options?.include_usage) send({ choices: [], usage });
    res.end('data: [DONE]\n\n');
  });
  return Object.assign(fake, served);
}

/** The events of a server-sent-event answer the platform wrote (`event:` and one `data:` line of JSON each). */
export function serverSentEvents(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) };
    });
}
