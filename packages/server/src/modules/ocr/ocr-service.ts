import { contracts } from '@tritium/shared';
import { controlValueProblem } from '@tritium/shared/controls/check-value';
import { controlStorage } from '@tritium/shared/controls/index';
import { controlChoices, controlFromInput } from '@tritium/shared/controls/input-values';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from '../files/file-store.ts';
import { findFiles } from '../files/files.repo.ts';
import { assertOwnPendingFile, imageKindOf, readStoredFile } from '../files/own-upload.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type DataField } from '../business-data/runtime-form.ts';
import { isReadOnly } from '../permission/form-rights.ts';
import { requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { readPictureText } from './ocr-runner.ts';
import { getTemplate } from './recognition-templates.ts';
import { applyRules, type FieldReading } from './template-rules.ts';
import { readByModel, type ModelReader } from './model-reading.ts';

// The OCR calls (docs/decisions/0125): a person's own uploaded picture is read on the machine into text lines; a
// recognition template takes field values from them; the OCR control of a form maps those to its fields, each value
// passed through the checks a save applies. Everything needs the OCR plugin installed. Nothing is saved.

const { OCR_BOUNDS } = contracts;
const IMAGE_MAX_BYTES = OCR_BOUNDS.imageMb * 1024 * 1024;

export interface OcrDeps {
  store: FileStore;
  /** Reads lines with the chat model for a template in `model` mode; absent or unavailable: the rules. */
  model?: ModelReader;
}

async function pictureBytes(store: FileStore, ctx: NodeContext, fileId: string): Promise<Buffer> {
  const [row] = await findFiles(engineOf(ctx), [fileId]);
  const invalid = () => new AppError('OcrImageInvalid', { detail: { limitMb: OCR_BOUNDS.imageMb } });
  const bytes = await readStoredFile(store, assertOwnPendingFile(row, ctx.userId, fileId), IMAGE_MAX_BYTES, invalid);
  const kind = imageKindOf(bytes);
  if (kind !== 'jpeg' && kind !== 'png' && kind !== 'webp') throw invalid();
  return bytes;
}

export async function recognize(deps: OcrDeps, ctx: NodeContext, fileId: string): Promise<contracts.OcrRecognizeResult> {
  await requireInstalledPlugin(engineOf(ctx), 'ocr');
  const bytes = await pictureBytes(deps.store, ctx, fileId);
  const started = Date.now();
  const result = await readPictureText(bytes);
  return { width: result.width, height: result.height, lines: result.lines, durationMs: Date.now() - started };
}

async function readTemplate(deps: OcrDeps, ctx: NodeContext, template: contracts.RecognitionTemplateDto, lines: contracts.OcrLine[]): Promise<{ fields: FieldReading[]; by: contracts.OcrTemplateMode }> {
  if (template.mode === 'model' && deps.model) {
    const read = await readByModel(deps.model, ctx, template, lines);
    if (read) return { fields: read, by: 'model' };
  }
  return { fields: applyRules(template.fields, lines), by: 'rules' };
}

export async function extract(deps: OcrDeps, ctx: NodeContext, body: contracts.OcrExtractBody): Promise<contracts.OcrExtractResult> {
  const template = await getTemplate(engineOf(ctx), body.templateCode);
  const read = await recognize(deps, ctx, body.fileId);
  const { fields, by } = await readTemplate(deps, ctx, template, read.lines);
  return { ...read, fields: fields.map(({ code, name, value }) => ({ code, name, value })), by };
}

const CHINESE_DATE = /^(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日$/;
const pad = (n: string) => n.padStart(2, '0');

/** A read text as the input a control takes: dates written out as YYYY-MM-DD, amounts without separators. */
function inputOf(field: DataField, text: string): unknown {
  const dataType = controlStorage(field.type, field.options).dataType;
  if (dataType === 'datetime') {
    const chinese = CHINESE_DATE.exec(text);
    if (chinese) return `${chinese[1]}-${pad(chinese[2]!)}-${pad(chinese[3]!)}`;
    return text.replace(/[/.]/g, '-');
  }
  if (dataType === 'decimal' || dataType === 'int') {
    const number = Number(text.replace(/[,，¥￥\s]/g, ''));
    return Number.isFinite(number) ? number : text;
  }
  if (dataType === 'strings') return [text];
  return text;
}

const labelOf = (field: DataField) => (typeof field.options.displayName === 'string' && field.options.displayName ? field.options.displayName : field.code);

/** The OCR control's picture read with its template, the values its mapping names as a save would take them. */
export async function fillForm(deps: OcrDeps, ctx: NodeContext, body: contracts.OcrFormFillBody): Promise<contracts.OcrFormFillResult> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const control = form.fields.find((f) => f.code === body.controlCode);
  const templateCode = control?.type.key === 'ocr' && !isReadOnly(form.rights, control.code) ? control.options.templateCode : null;
  if (!control || typeof templateCode !== 'string') throw new AppError('OcrControlInvalid', { detail: { control: control ? labelOf(control) : body.controlCode } });
  const template = await getTemplate(edb, templateCode);
  const read = await recognize(deps, ctx, body.fileId);
  const { fields: readings } = await readTemplate(deps, ctx, template, read.lines);
  const byCode = new Map(readings.map((r) => [r.code, r]));
  const mapping = (control.options.mapping ?? {}) as Record<string, string>;
  const result: contracts.OcrFormFillResult = { values: {}, filled: [], issues: [], fields: readings.map(({ code, name, value }) => ({ code, name, value })), lines: read.lines };
  for (const [target, templateField] of Object.entries(mapping)) {
    const field = form.fields.find((f) => f.code === target);
    const reading = byCode.get(templateField);
    if (!field || !reading || isReadOnly(form.rights, field.code)) continue;
    if (reading.problem) result.issues.push({ field: field.code, message: `${labelOf(field)}：${reading.problem}` });
    if (reading.value === null) continue;
    const value = controlFromInput(field.type, inputOf(field, reading.value));
    const choices = controlChoices(field.type, field.options);
    const items = Array.isArray(value) ? value : [value];
    const problem = choices && items.some((item) => typeof item === 'string' && !choices.includes(item))
      ? `“${reading.value}”不是可选项`
      : controlValueProblem(field.type, field.options, value);
    if (problem) result.issues.push({ field: field.code, message: `${labelOf(field)}：${problem}` });
    else {
      result.values[field.code] = value;
      result.filled.push(field.code);
    }
  }
  return result;
}
