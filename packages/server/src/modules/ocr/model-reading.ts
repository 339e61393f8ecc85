import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { chatComplete, type AiDeps } from '../ai/ai-client.ts';
import { aiStatus } from '../ai/ai-settings.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import type { FieldReading } from './template-rules.ts';

// A template in `model` mode (docs/decisions/0125): the lines OCR read (text only, in reading order) go to the
// engine's chat model with a JSON schema of the template's fields, through the one AI client (credit, rate and usage
// log as every AI call). Never required: where AI is not available, or the model fails, the template's rules read.

export type ModelReader = AiDeps & { db: Db };

const SYSTEM = [
  '你从 OCR 识别出的文字行中提取字段的值，按给定的 JSON 结构输出。',
  '只填写文字中明确出现的值，原样照抄；没有的字段填 null，不要编造。',
].join('\n');

export async function readByModel(deps: ModelReader, ctx: NodeContext, template: contracts.RecognitionTemplateDto, lines: contracts.OcrLine[]): Promise<FieldReading[] | null> {
  const edb = engineOf(ctx);
  if (!(await aiStatus(deps.db, edb, ctx.engineCode, false)).available) return null;
  const properties = Object.fromEntries(template.fields.map((f) => [f.code, { type: ['string', 'null'], description: f.name }]));
  const schema = { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  const text = lines.map((l) => l.text).join('\n').slice(0, 20000);
  try {
    const answer = await chatComplete(
      deps,
      edb,
      { engineCode: ctx.engineCode, userId: ctx.userId, scene: 'ocr' },
      [{ role: 'system', content: SYSTEM }, { role: 'user', content: `模板：${template.name}\n文字：\n${text}` }],
      { temperature: 0, responseFormat: { type: 'json_schema', json_schema: { name: 'recognition', strict: true, schema } } },
    );
    const parsed = JSON.parse(answer.content) as Record<string, unknown>;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    return template.fields.map((f) => {
      const value = parsed[f.code];
      return { code: f.code, name: f.name, value: typeof value === 'string' && value.trim() ? value.trim().slice(0, 500) : null };
    });
  } catch {
    return null;
  }
}
