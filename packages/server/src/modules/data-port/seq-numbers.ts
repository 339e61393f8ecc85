import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { formatSeqNo as formatRecordSeqNo, periodOf, ymd } from '../business-data/record-numbers.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';

// Sequence numbers for a batch of imported records (docs/decisions/0020): the counter of the current period is
// advanced by the batch's count in one statement (the form save takes one number per statement), then each record's
// number is formed as record-numbers.ts nextSeqNo forms it (created time, increment, fixed text, another control).

/** Takes `count` numbers of the form's counter at once; answers the first one. */
export async function reserveCounter(edb: EngineExecutor, form: RuntimeForm, count: number, now: Date): Promise<number> {
  const options = form.seqNo?.options ?? {};
  const period = periodOf(String(options.resetMode ?? 'none'), now);
  const row = await edb
    .insertInto('form_seq_no')
    .values({ schema_code: form.node.code, control_code: form.seqNo?.code ?? 'SeqNo', period, value: count })
    .onConflict((oc) => oc.columns(['schema_code', 'control_code', 'period']).doUpdateSet({ value: sql<number>`form_seq_no.value + ${count}`, modified_time: sql`now()` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value) - count + 1;
}

// A batch forms all its numbers at one moment: the date text is worked out once (Intl formatting is slow).
let lastDay: { time: number; text: string } | undefined;
function dayOf(now: Date): string {
  if (lastDay?.time !== now.getTime()) lastDay = { time: now.getTime(), text: ymd(now) };
  return lastDay.text;
}

/** The record's number for counter value `counter` (as nextSeqNo writes it), the day's text worked out once a batch. */
export function formatSeqNo(form: RuntimeForm, counter: number, values: Record<string, unknown>, now: Date): string {
  return formatRecordSeqNo(form, counter, values, dayOf(now));
}
