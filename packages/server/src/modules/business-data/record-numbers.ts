import { sql } from 'kysely';
import { controlDisplayText } from '@tritium/shared/controls/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineSchemaName } from '../../db/database.ts';
import { anyDb, type RuntimeForm } from './runtime-form.ts';

// Sequence numbers and record names (domain.md §9 "Sequence number", docs/decisions/0007 "Sequence numbers").
//
// The one way new records take their numbers (docs/decisions/0095, 0099): `numberNewRecords` for a single save, a
// batch save and an import batch alike. The counter (form_seq_no) is advanced by the records' count in ONE statement
// (`counterBump`): either a WITH of the statement that inserts the records (when no record's Name holds its number and
// the structure has no part that varies by record: `numberingOf`), or a statement of its own before the insert —
// in the caller's transaction, or committed at once on another executor (an import's batches in flight, 0099).

/** Dates in numbers and periods are read in the product's zone (the UI's default, DisplayContext). */
export const RECORD_TIME_ZONE = 'Asia/Shanghai';

type SeqPart = { type: 'createdTime'; format: 'yyyy' | 'yyyymm' | 'yyyymmdd' } | { type: 'increment'; digits: number } | { type: 'fixedValue'; value: string } | { type: 'formControl'; code: string };

const DEFAULT_STRUCTURE: SeqPart[] = [{ type: 'createdTime', format: 'yyyy' }, { type: 'increment', digits: 8 }];

let lastDay: { time: number; text: string } | undefined;
// Made once: building an Intl.DateTimeFormat costs far more than formatting with it (it was among the top self-time
// functions of a single create, issue 26).
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: RECORD_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** yyyymmdd of a moment in RECORD_TIME_ZONE (the last one remembered: a batch numbers its records at one moment). */
export function ymd(now: Date): string {
  if (lastDay?.time === now.getTime()) return lastDay.text;
  const parts = dayFormat.formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  lastDay = { time: now.getTime(), text: `${get('year')}${get('month')}${get('day')}` };
  return lastDay.text;
}

/** The counter's period: '' (never resets), yyyy, yyyymm or yyyymmdd. */
export function periodOf(resetMode: string, now: Date): string {
  const d = ymd(now);
  if (resetMode === 'year') return d.slice(0, 4);
  if (resetMode === 'month') return d.slice(0, 6);
  if (resetMode === 'day') return d;
  return '';
}

/** A form's counter in the current reset period: one row of form_seq_no. */
export interface Counter {
  schemaCode: string;
  controlCode: string;
  period: string;
}

/** The counter a new record of `form` created at `now` takes its increment from. */
export function counterOf(form: RuntimeForm, now: Date): Counter {
  const resetMode = String(form.seqNo?.options.resetMode ?? 'none');
  return { schemaCode: form.node.code, controlCode: form.seqNo?.code ?? 'SeqNo', period: periodOf(resetMode, now) };
}

/**
 * The counter advanced by `count`, answering its value after (the last number taken): the only statement that moves a
 * counter, run alone (takeCounter) or as a WITH of an insert (json-rows.ts insertJsonTables). The row lock it takes
 * makes a concurrent take wait for the taker's commit, so no two records get the same number (0007).
 */
export function counterBump(engineCode: string, counter: Counter, count: number) {
  const table = sql.id(engineSchemaName(engineCode), 'form_seq_no');
  return sql`insert into ${table} as s (schema_code, control_code, period, value) values (${counter.schemaCode}, ${counter.controlCode}, ${counter.period}, ${count}) on conflict (schema_code, control_code, period) do update set value = s.value + ${count}, modified_time = now() returning s.value`;
}

/** Takes `count` values of the counter on `edb` (a transaction, or a statement of its own); answers the last. */
export async function takeCounter(edb: EngineExecutor, engineCode: string, counter: Counter, count: number): Promise<number> {
  const { rows } = await sql<{ value: number | string }>`${counterBump(engineCode, counter, count)}`.execute(anyDb(edb));
  return Number(rows[0]!.value);
}

/** A new record to number: its values (a formControl part reads them) and its system fields for a number (its Name reads them). */
export interface RecordToNumber {
  values: Record<string, unknown>;
  system: (seqNo: string | null) => Record<string, unknown>;
}

/**
 * Numbers and Names of new records, in order. With `numbering` the insert forms the numbers (seqNos are null until
 * then: `numberedSeqNo` with the insert's answer); without, the numbers are taken here in one statement — on
 * `counterDb` when given (committed at once, outside the caller's transaction: a failed insert then leaves a gap), else
 * on `edb`.
 */
export async function numberNewRecords(
  edb: EngineExecutor,
  engineCode: string,
  form: RuntimeForm,
  records: readonly RecordToNumber[],
  now: Date,
  options: { counterDb?: EngineExecutor } = {},
): Promise<{ numbering?: Numbering; seqNos: (string | null)[]; names: string[] }> {
  if (!records.length) return { seqNos: [], names: [] };
  const numbering = options.counterDb ? undefined : numberingOf(form, now);
  if (numbering) {
    const names = records.map((r) => nameWithoutSeqNo(form, r.values, r.system(null)));
    if (names.every((n) => n !== undefined)) return { numbering, seqNos: records.map(() => null), names: names as string[] };
  }
  const last = await takeCounter(options.counterDb ?? edb, engineCode, counterOf(form, now), records.length);
  const date = ymd(now);
  const seqNos = records.map((r, i) => formatSeqNo(form, last - records.length + 1 + i, r.values, date));
  return { seqNos, names: records.map((r, i) => recordName(form, r.values, r.system(seqNos[i]!))) };
}

/**
 * How the database numbers new records in their insert (json-rows.ts insertJsonTables): the counter's bump is one
 * more WITH, and each row's `column` = `prefix`, the counter's value for it (its place among the rows) padded with
 * zeros to `digits`, then `suffix` — the number as formatSeqNo forms it.
 */
export interface Numbering {
  counter: Counter;
  column: string;
  prefix: string;
  digits: number;
  suffix: string;
}

/**
 * How the database numbers a batch of new records in its insert (json-rows.ts Numbering): when the form's structure
 * has one increment and no part that varies by record, every number is the same text around the increment. Undefined
 * otherwise (the counter is then bumped by a statement of its own and the numbers formed here).
 */
export function numberingOf(form: RuntimeForm, now: Date): Numbering | undefined {
  const structure = (form.seqNo?.options.seqNoStructure as SeqPart[] | undefined) ?? DEFAULT_STRUCTURE;
  const at = structure.findIndex((p) => p.type === 'increment');
  if (at < 0 || structure.some((p, i) => p.type === 'formControl' || (i !== at && p.type === 'increment'))) return undefined;
  const date = ymd(now);
  const text = (parts: SeqPart[]) => parts.map((p) => (p.type === 'createdTime' ? date.slice(0, p.format.length) : p.type === 'fixedValue' ? p.value : '')).join('');
  return {
    counter: counterOf(form, now),
    column: 'SeqNo',
    prefix: text(structure.slice(0, at)),
    digits: (structure[at] as { digits: number }).digits,
    suffix: text(structure.slice(at + 1)),
  };
}

/** A number as the database forms it under `numbering` (the same text formatSeqNo forms). */
export const numberedSeqNo = (numbering: Numbering, counter: number) => numbering.prefix + String(counter).padStart(numbering.digits, '0') + numbering.suffix;

/** A record's number for counter value `counter` on the day `date` (yyyymmdd): the control's structure, part by part. */
export function formatSeqNo(form: RuntimeForm, counter: number, values: Record<string, unknown>, date: string): string {
  const structure = (form.seqNo?.options.seqNoStructure as SeqPart[] | undefined) ?? DEFAULT_STRUCTURE;
  return structure
    .map((part) => {
      switch (part.type) {
        case 'createdTime':
          return date.slice(0, part.format.length);
        case 'increment':
          return String(counter).padStart(part.digits, '0');
        case 'fixedValue':
          return part.value;
        case 'formControl': {
          const field = form.fields.find((f) => f.code === part.code);
          return field ? controlDisplayText({ type: field.type.key, options: field.options }, values[part.code] ?? null) : '';
        }
      }
    })
    .join('');
}

/**
 * A record's Name (数据标题): attributes.nameSchema with each {code} replaced by that field's text (system fields
 * included); without a rule, the first text box's value, else the form's name and the sequence number.
 */
export function recordName(form: RuntimeForm, values: Record<string, unknown>, system: Record<string, unknown>): string {
  const rule = form.definition.attributes.nameSchema ?? '';
  const text = (code: string): string => {
    const field = form.fields.find((f) => f.code === code);
    if (field) return controlDisplayText({ type: field.type.key, options: field.options }, values[code] ?? null);
    const v = system[code];
    return v == null ? '' : v instanceof Date ? v.toISOString() : String(v);
  };
  if (rule.trim()) return rule.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, code: string) => text(code)).slice(0, 200);
  const firstText = form.fields.find((f) => f.type.key === 'textBox' && typeof values[f.code] === 'string' && values[f.code] !== '');
  if (firstText) return String(values[firstText.code]).slice(0, 200);
  return `${form.definition.attributes.displayName}-${String(system.SeqNo ?? '')}`;
}

const PROBE = '\uffff';

/**
 * A new record's Name when it does not hold its sequence number (the number is then free to be formed by the
 * database in the insert, numberingOf); undefined when it does. One character stands in for the number: the Name
 * holds it exactly when the number would start within its 200 characters.
 */
export function nameWithoutSeqNo(form: RuntimeForm, values: Record<string, unknown>, system: Record<string, unknown>): string | undefined {
  const name = recordName(form, values, { ...system, SeqNo: PROBE });
  return name.includes(PROBE) ? undefined : name;
}
