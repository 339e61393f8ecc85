import { controlDisplayText, formatDateTime } from '@tritium/shared/controls/index';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import { createFormulaContext, evaluateFormula } from '@tritium/shared/formula/index';
import type { PrintDocument, PrintLayout, PrintSheet, PrintTraceEntry } from '@tritium/shared/print/index';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { presentChildRow, presentSystem, presentValues, visibleFields, visibleGrids } from '../business-data/record.presenter.ts';
import { readableIds } from '../business-data/record-policy.ts';
import { childRowsOf, findRecordsByIds } from '../business-data/records.repo.ts';
import * as workflow from '../workflow/workflow.service.ts';
import { PRINT_SYSTEM_FIELDS } from './print-templates.service.ts';
import { associationOf, chosenRecords } from '../business-data/association.service.ts';
import type { ControlAt } from '../business-data/data-link.service.ts';
import { FILE_IMAGE, imageRef } from './print-images.ts';

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

/** Names of the records the association fields of `rows` point at, as the caller may read them (others print their id). */
async function associatedNames(ctx: NodeContext, controls: readonly ControlAt[], rows: readonly Record<string, unknown>[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const control of controls) {
    const association = associationOf(control);
    if (!association) continue;
    const wanted = [...new Set(rows.flatMap((r) => idsOf(r[control.code])))].filter((id) => !names.has(id));
    for (let i = 0; i < wanted.length; i += 500) {
      for (const record of await chosenRecords(ctx, association, wanted.slice(i, i + 500))) names.set(String(record.ObjectId), String(record.Name ?? ''));
    }
  }
  return names;
}

// Records → what a template prints (docs/decisions/0050): under the viewer's rights — only records they may read,
// hidden fields and sub-tables left out — as texts (people and departments by name, dates in the spec's formats),
// with each QR code's and barcode's content resolved (a field, the record's link, or a formula of the formula engine).

const STATUS_TEXT = ['草稿', '生效', '进行中', '已作废'];
const ACTION_TEXT: Record<string, string> = {
  Submit: '提交', Approve: '同意', Agree: '同意', Reject: '驳回', DisAgree: '不同意', Forward: '转交', ForBack: '退回', Comment: '评论', Read: '已阅',
  CancelInstance: '作废', FinishInstance: '结束流程', Revise: '修订', Assist: '协办', Consult: '征询', Circulate: '传阅', Retrieve: '撤回', Start: '发起',
};

export interface Names {
  user(id: string): string | undefined;
  unit(id: string): string | undefined;
}

/** Names of the engine's people and departments, loaded once per print. */
export async function loadNames(edb: EngineExecutor): Promise<Names> {
  const users = new Map((await edb.selectFrom('org_users').select(['id', 'name']).execute()).map((u) => [u.id, u.name]));
  const units = new Map((await edb.selectFrom('org_units').select(['id', 'name']).execute()).map((u) => [u.id, u.name]));
  return { user: (id) => users.get(id), unit: (id) => units.get(id) ?? users.get(id) };
}

/** The form's words for a template: field names, system field names, sub-table columns. */
export function sheetOf(form: RuntimeForm, documents: PrintDocument[]): PrintSheet {
  const labels: Record<string, string> = { ...PRINT_SYSTEM_FIELDS };
  const name = (options: Record<string, unknown>, code: string) => String(options.displayName ?? code);
  for (const f of visibleFields(form)) labels[f.code] = name(f.options, f.code);
  const gridColumns: Record<string, string[]> = {};
  for (const g of visibleGrids(form)) {
    labels[g.code] = name(g.options, g.code);
    gridColumns[g.code] = g.fields.map((f) => f.code);
    for (const f of g.fields) labels[`${g.code}.${f.code}`] = name(f.options, f.code);
  }
  return { title: form.definition.attributes.displayName, labels, gridColumns, documents };
}

/** The ids the caller may read, in the order asked. */
export async function printableIds(edb: EngineExecutor, form: RuntimeForm, ids: readonly string[], userId: string): Promise<string[]> {
  const readable = await readableIds(edb, form, [...new Set(ids)], userId);
  return [...new Set(ids)].filter((id) => readable.has(id));
}

function traceOf(detail: Awaited<ReturnType<typeof workflow.detail>>, names: Names): PrintTraceEntry[] {
  const activityName = new Map<string, string>();
  for (const t of detail.tokens) activityName.set(t.activityCode, t.activityName);
  for (const i of detail.items) activityName.set(i.activityCode, i.activityName);
  return detail.comments.map((c) => ({
    activity: c.activityCode ? (activityName.get(c.activityCode) ?? c.activityCode) : '',
    user: names.user(c.userId) ?? c.userId,
    action: ACTION_TEXT[c.action] ?? c.action,
    opinion: c.text,
    time: formatDateTime(c.createdTime, 'yyyy-mm-dd hh:mm'),
    signature: imageRef(c.signature),
  }));
}

function codeText(source: Extract<PrintLayout['elements'][number], { type: 'qrCode' }>['source'], values: Record<string, string>, raw: Record<string, unknown>, link: string, names: Names): string {
  if (source.kind === 'link') return link;
  if (source.kind === 'field') return values[source.field] ?? '';
  const result = evaluateFormula(source.formula, createFormulaContext(raw, { unitName: (id) => names.unit(id) }));
  if (!result.ok) return '';
  const v = result.value;
  return v == null ? '' : Array.isArray(v) ? v.join(',') : v instanceof Date ? v.toISOString() : String(v);
}

/**
 * The documents of `ids` (already narrowed to what the caller may read), in that order. `baseUrl`: the origin the
 * record links in QR codes point at.
 */
export async function assembleDocuments(ctx: NodeContext, form: RuntimeForm, layout: PrintLayout, ids: readonly string[], names: Names, baseUrl: string): Promise<PrintDocument[]> {
  if (!ids.length) return [];
  const edb = engineOf(ctx);
  const fields = visibleFields(form);
  const grids = visibleGrids(form);
  const rows = new Map((await findRecordsByIds(edb, form, [...ids])).map((r) => [String(r.ObjectId), r]));
  const children = new Map<string, Map<string, Record<string, unknown>[]>>();
  for (const grid of grids) {
    const byParent = new Map<string, Record<string, unknown>[]>();
    for (const row of await childRowsOf(edb, grid, [...ids])) {
      const list = byParent.get(String(row.ParentObjectId)) ?? [];
      list.push(presentChildRow(grid, row));
      byParent.set(String(row.ParentObjectId), list);
    }
    children.set(grid.code, byParent);
  }
  const raws = new Map([...rows].map(([id, row]) => [id, presentValues(fields, row)]));
  const objectNames = await associatedNames(ctx, [...fields, ...grids.flatMap((g) => g.fields)], [...raws.values(), ...[...children.values()].flatMap((m) => [...m.values()].flat())]);
  const display = { unitName: (id: string) => names.unit(id), objectName: (id: string) => objectNames.get(id) || undefined };
  const codes = layout.elements.filter((e) => e.type === 'qrCode' || e.type === 'barcode');
  const wantsTrace = form.isWorkflow && layout.elements.some((e) => e.type === 'approvalTrace');
  const documents: PrintDocument[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) continue;
    const raw = raws.get(id)!;
    const system = presentSystem(row);
    const values: Record<string, string> = {};
    const images: Record<string, string> = {};
    for (const f of fields) {
      values[f.code] = controlDisplayText({ type: f.type.key, options: f.options }, raw[f.code], display);
      const file = f.type.key === 'handSign' ? (raw[f.code] as { id?: unknown } | null)?.id : undefined;
      if (typeof file === 'string') images[f.code] = `${FILE_IMAGE}${file}`;
    }
    values.Name = system.Name;
    values.SeqNo = system.SeqNo ?? '';
    values.Status = STATUS_TEXT[system.Status] ?? String(system.Status);
    values.CreatedBy = system.CreatedBy ? (names.user(system.CreatedBy) ?? system.CreatedBy) : '';
    values.OwnerId = system.OwnerId ? (names.user(system.OwnerId) ?? system.OwnerId) : '';
    values.OwnerDeptId = system.OwnerDeptId ? (names.unit(system.OwnerDeptId) ?? system.OwnerDeptId) : '';
    values.CreatedTime = system.CreatedTime ? formatDateTime(system.CreatedTime, 'yyyy-mm-dd hh:mm') : '';
    values.ModifiedTime = system.ModifiedTime ? formatDateTime(system.ModifiedTime, 'yyyy-mm-dd hh:mm') : '';
    const printedGrids: PrintDocument['grids'] = {};
    const rawWithRows: Record<string, unknown> = { ...raw };
    for (const grid of grids) {
      const list = children.get(grid.code)!.get(id) ?? [];
      rawWithRows[grid.code] = list;
      printedGrids[grid.code] = {
        rows: list.map((r) => Object.fromEntries(grid.fields.map((f) => [f.code, controlDisplayText({ type: f.type.key, options: f.options }, r[f.code], display)]))),
      };
    }
    const link = `${baseUrl}${FORM_RUNTIME_PATH}/${encodeURIComponent(form.node.code)}/${encodeURIComponent(id)}`;
    const codeTexts: Record<string, string> = {};
    for (const e of codes) if (e.type === 'qrCode' || e.type === 'barcode') codeTexts[e.id] = codeText(e.source, values, rawWithRows, link, names);
    let trace: PrintTraceEntry[] = [];
    if (wantsTrace && system.WorkflowInstanceId) {
      trace = traceOf(await workflow.detail(ctx, { instanceId: system.WorkflowInstanceId }), names).filter(Boolean);
    }
    documents.push({ objectId: id, values, grids: printedGrids, codes: codeTexts, images, trace });
  }
  return documents;
}
