import type OpenAI from 'openai';
import { contracts } from '@tritium/shared';
import { controlValueProblem } from '@tritium/shared/controls/check-value';
import { controlStorage } from '@tritium/shared/controls/index';
import { controlChoices, controlFromInput } from '@tritium/shared/controls/input-values';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from '../files/file-store.ts';
import { findFiles } from '../files/files.repo.ts';
import { assertOwnPendingFile, imageKindOf, readStoredFile } from '../files/own-upload.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type DataField, type RuntimeForm } from '../business-data/runtime-form.ts';
import { isReadOnly } from '../permission/form-rights.ts';
import { chatComplete, type AiDeps } from './ai-client.ts';
import { PDF_BOUNDS, isPdf, pdfText } from './pdf-text.ts';

// Form extraction (docs/decisions/0124): a pasted text or a picture (the vision model) becomes the values of the form's fields the person may fill,
// by the chat model's structured output against a JSON schema made from the form's controls (sub-table rows too).
// Every value then passes the checks a save applies — the registry's value schema and rules, a choice control's items
// — and what fails is left out and named. Nothing is saved: the form shows the values for the person to check.

/**
 * Controls whose values a text can carry: the registry's basic controls that store text, numbers, dates, yes/no or a
 * set of items. People, departments, files, addresses, formulas, sequence numbers and the like are left to the form.
 */
const TEXT_DATA_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'decimal', 'int', 'datetime', 'bool', 'strings']);
const dataTypeOf = (field: DataField) => controlStorage(field.type, field.options).dataType;
const extractable = (field: DataField) => field.type.group === 'basic' && TEXT_DATA_TYPES.has(dataTypeOf(field));

type JsonSchema = Record<string, unknown>;

export const label = (field: DataField) => (typeof field.options.displayName === 'string' && field.options.displayName ? field.options.displayName : field.code);

/** The JSON schema of one control's value, nullable (strict structured outputs want every key present). */
function schemaOf(field: DataField): JsonSchema {
  const type = field.type;
  const choices = controlChoices(type, field.options);
  const description = label(field);
  switch (dataTypeOf(field)) {
    case 'decimal':
    case 'int':
      return { type: ['number', 'null'], description };
    case 'bool':
      return { type: ['boolean', 'null'], description };
    case 'strings':
      return { type: ['array', 'null'], items: choices ? { type: 'string', enum: [...choices] } : { type: 'string' }, description };
    case 'datetime':
      return { type: ['string', 'null'], description: `${description}（YYYY-MM-DD 或 YYYY-MM-DD HH:mm）` };
    default:
      return choices ? { type: ['string', 'null'], enum: [...choices, null], description } : { type: ['string', 'null'], description };
  }
}

const fillable = (form: RuntimeForm, code: string) => !isReadOnly(form.rights, code);

function objectSchema(fields: DataField[], extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = Object.fromEntries(fields.map((f) => [f.code, schemaOf(f)]));
  Object.assign(properties, extra);
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The form's fillable controls as one JSON schema; null when there is nothing a text could fill. */
export function extractionSchema(form: RuntimeForm): { schema: JsonSchema; fields: DataField[]; grids: { code: string; fields: DataField[] }[] } | null {
  const fields = form.fields.filter((f) => extractable(f) && fillable(form, f.code));
  const grids = form.grids
    .filter((g) => fillable(form, g.code))
    .map((g) => ({ code: g.code, label: typeof g.options.displayName === 'string' ? g.options.displayName : g.code, fields: g.fields.filter((f) => extractable(f) && fillable(form, `${g.code}.${f.code}`)) }))
    .filter((g) => g.fields.length);
  if (!fields.length && !grids.length) return null;
  const gridSchemas = Object.fromEntries(grids.map((g) => [g.code, { type: 'array', description: `${g.label}（每行一项）`, items: objectSchema(g.fields) }]));
  return { schema: objectSchema(fields, gridSchemas), fields, grids };
}

/** One value as a save would take it, or the reason it would not (the assistant's drafts pass the same). */
export function accepted(field: DataField, raw: unknown): { value: unknown } | { problem: string } | null {
  if (raw === null || raw === undefined || raw === '' || (Array.isArray(raw) && !raw.length)) return null;
  const type = field.type;
  const value = controlFromInput(type, raw);
  const choices = controlChoices(type, field.options);
  const items = Array.isArray(value) ? value : [value];
  if (choices && items.some((item) => typeof item === 'string' && !choices.includes(item))) return { problem: `“${items.join('、')}”不是可选项` };
  const problem = controlValueProblem(type, field.options, value);
  return problem ? { problem } : { value };
}

const SYSTEM = [
  '你从用户提供的文字中提取表单字段的值，按给定的 JSON 结构输出。',
  '只填写文字中明确出现或可以直接推出的信息；没有的字段填 null，不要编造。',
  '日期写成 YYYY-MM-DD，带时间时写成 YYYY-MM-DD HH:mm；金额和数量只写数字；选项字段只能用给出的选项。',
].join('\n');

const { AI_BOUNDS } = contracts;
const IMAGE_MAX_BYTES = AI_BOUNDS.imageMb * 1024 * 1024;
const PDF_MAX_BYTES = PDF_BOUNDS.maxMb * 1024 * 1024;

/**
 * The person's upload: a picture as a data URL for the vision model, or a PDF's text layer (docs/decisions/0126) for
 * the text path. Their own upload only; a picture or a PDF by its bytes, each under its own bound.
 */
async function uploadOf(store: FileStore, ctx: NodeContext, fileId: string): Promise<{ picture: string } | { text: string }> {
  const [row] = await findFiles(engineOf(ctx), [fileId]);
  const invalid = () => new AppError('AiImageInvalid', { detail: { limitMb: AI_BOUNDS.imageMb } });
  const own = assertOwnPendingFile(row, ctx.userId, fileId);
  const bytes = await readStoredFile(store, own, Math.max(IMAGE_MAX_BYTES, PDF_MAX_BYTES), () => (own.name.toLowerCase().endsWith('.pdf') ? new AppError('AiPdfTooLarge', { detail: { maxPages: PDF_BOUNDS.maxPages, limitMb: PDF_BOUNDS.maxMb } }) : invalid()));
  if (isPdf(bytes)) return { text: await pdfText(bytes) };
  const kind = imageKindOf(bytes);
  if ((kind !== 'jpeg' && kind !== 'png' && kind !== 'webp') || bytes.length > IMAGE_MAX_BYTES) throw invalid();
  return { picture: `data:image/${kind};base64,${bytes.toString('base64')}` };
}

export async function extractForm(deps: AiDeps & { store: FileStore }, ctx: NodeContext, body: contracts.FormExtractionBody): Promise<contracts.FormExtractionResult> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const shape = extractionSchema(form);
  if (!shape) throw new AppError('AiExtractionNothing');
  const upload = body.fileId ? await uploadOf(deps.store, ctx, body.fileId) : null;
  const picture = upload && 'picture' in upload ? upload.picture : null;
  // A PDF's text goes the text path, after what the person wrote.
  const text = upload && 'text' in upload ? [body.text, upload.text].filter(Boolean).join('\n\n') : (body.text ?? '');
  const asked: OpenAI.Chat.Completions.ChatCompletionUserMessageParam = picture
    ? { role: 'user', content: [{ type: 'text', text: body.text || '请识别图片中的信息。' }, { type: 'image_url', image_url: { url: picture } }] }
    : { role: 'user', content: text };
  const answer = await chatComplete(
    deps,
    edb,
    { engineCode: ctx.engineCode, userId: ctx.userId, scene: 'extraction' },
    [{ role: 'system', content: SYSTEM }, asked],
    { temperature: 0, vision: !!picture, responseFormat: { type: 'json_schema', json_schema: { name: 'form_values', strict: true, schema: shape.schema } } },
  );
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(answer.content) as Record<string, unknown>;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
  } catch {
    throw new AppError('AiProviderFailed', { detail: { message: '模型返回的内容不是表单数据' } });
  }
  const result: contracts.FormExtractionResult = { values: {}, children: {}, filled: [], issues: [] };
  for (const field of shape.fields) {
    const outcome = accepted(field, parsed[field.code]);
    if (!outcome) continue;
    if ('problem' in outcome) result.issues.push({ field: field.code, message: `${label(field)}：${outcome.problem}` });
    else {
      result.values[field.code] = outcome.value;
      result.filled.push(field.code);
    }
  }
  for (const grid of shape.grids) {
    const rows = Array.isArray(parsed[grid.code]) ? (parsed[grid.code] as unknown[]).slice(0, 200) : [];
    const kept: Record<string, unknown>[] = [];
    rows.forEach((raw, index) => {
      if (!raw || typeof raw !== 'object') return;
      const row: Record<string, unknown> = {};
      for (const field of grid.fields) {
        const outcome = accepted(field, (raw as Record<string, unknown>)[field.code]);
        if (!outcome) continue;
        if ('problem' in outcome) result.issues.push({ field: `${grid.code}.${field.code}`, message: `第 ${index + 1} 行 ${label(field)}：${outcome.problem}` });
        else row[field.code] = outcome.value;
      }
      if (Object.keys(row).length) kept.push(row);
    });
    if (kept.length) {
      result.children[grid.code] = kept;
      result.filled.push(grid.code);
    }
  }
  return result;
}
