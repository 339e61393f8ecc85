import { controlDisplayText } from '@tritium/shared/controls/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { nextCounterValue } from './records.repo.ts';
import type { Numbering } from './json-rows.ts';
import type { RuntimeForm } from './runtime-form.ts';

// Sequence numbers and record names (domain.md §9 "Sequence number", docs/decisions/0007 "Sequence numbers").

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

/**
 * The next sequence number of a new record: its control's structure (created time, the increment padded to its
 * digits, fixed text, another control's text) with the counter of the current reset period taken in the caller's
 * transaction. A form without a sequence-number control numbers its records as the control's default would.
 */
export async function nextSeqNo(edb: EngineExecutor, form: RuntimeForm, values: Record<string, unknown>, now: Date): Promise<string> {
  return (await nextSeqNos(edb, form, [values], now))[0]!;
}

/** The numbers of a batch of new records (values of each, in order): the counter advanced by their count in one statement. */
export async function nextSeqNos(edb: EngineExecutor, form: RuntimeForm, records: Record<string, unknown>[], now: Date): Promise<string[]> {
  if (!records.length) return [];
  const resetMode = String(form.seqNo?.options.resetMode ?? 'none');
  const last = await nextCounterValue(edb, form.node.code, form.seqNo?.code ?? 'SeqNo', periodOf(resetMode, now), records.length);
  const date = ymd(now);
  return records.map((values, i) => formatSeqNo(form, last - records.length + 1 + i, values, date));
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
  const resetMode = String(form.seqNo?.options.resetMode ?? 'none');
  return {
    counter: { schemaCode: form.node.code, controlCode: form.seqNo?.code ?? 'SeqNo', period: periodOf(resetMode, now) },
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
