import { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { can } from '../permission/form-rights.ts';
import { accepted, extractionSchema, label } from './form-extraction.ts';

// A record drafted from a conversation (docs/decisions/0126): the assistant's `draft_record` tool. The values the model
// gives pass the same checks as form extraction (and so as a save): the control's input conversion, its value schema
// and rules, a choice's items; what fails is left out and named. Only a form the person may create records in. The
// draft goes to the browser, which opens the form's new-record page filled with it: the server never saves it.

export const DraftArgs = z.strictObject({
  schemaCode: z.string().min(1).max(64),
  /** Field code (or the field's name) → value. */
  values: z.record(z.string(), z.unknown()),
});

export const DRAFT_TOOL = {
  type: 'function' as const,
  function: {
    name: 'draft_record',
    description: '当用户要求新建、起草、填写一条记录时调用：给出表单编码和字段值，系统会为用户打开填好的新建页面，由用户核对后自行保存（不会自动保存）。字段编码先用 describe_form 查看。',
    parameters: {
      type: 'object',
      properties: {
        schemaCode: { type: 'string' },
        values: { type: 'object', description: '字段编码 → 值；日期写成 YYYY-MM-DD，金额只写数字，选项字段只能用给出的选项', additionalProperties: true },
      },
      required: ['schemaCode', 'values'],
    },
  },
};

export interface DraftOutcome {
  result: unknown;
  draft: contracts.RecordDraft | null;
}

export async function draftRecord(ctx: NodeContext, args: z.infer<typeof DraftArgs>): Promise<DraftOutcome> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, args.schemaCode);
  if (!can(form.rights, 'create')) return { result: { error: `你没有在表单「${form.node.display_name}」新建数据的权限` }, draft: null };
  const fields = extractionSchema(form)?.fields ?? [];
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const byName = new Map(fields.map((f) => [label(f), f]));
  const draft: contracts.RecordDraft = { schemaCode: form.node.code, formName: form.node.display_name, values: {}, filled: [], issues: [] };
  for (const [key, raw] of Object.entries(args.values)) {
    const field = byCode.get(key) ?? byName.get(key);
    if (!field) {
      draft.issues.push({ field: key, message: `${key}：不是该表单中可以填写的字段` });
      continue;
    }
    const outcome = accepted(field, raw);
    if (!outcome) continue;
    if ('problem' in outcome) draft.issues.push({ field: field.code, message: `${label(field)}：${outcome.problem}` });
    else if (!(field.code in draft.values)) {
      draft.values[field.code] = outcome.value;
      draft.filled.push(field.code);
    }
  }
  const named = (codes: string[]) => codes.map((c) => label(byCode.get(c)!));
  const result = {
    form: form.node.display_name,
    filled: named(draft.filled),
    ...(draft.issues.length ? { notAccepted: draft.issues.map((i) => i.message) } : {}),
    note: draft.filled.length ? '草稿已在用户的页面中打开，用户核对后自行保存；不要说已经保存。' : '没有可以填入的值，未打开草稿。',
  };
  return { result, draft: draft.filled.length ? draft : null };
}
