import type { FilterNode } from '@tritium/shared/query/index';
import type { NodeContext } from '../function-node/node-context.ts';
import { associationOf, chosenRecords, rangeFilter, type Association, type ChosenAheadAnswers } from './association.service.ts';
import { controlsOf } from './data-link.service.ts';
import type { RuntimeForm } from './runtime-form.ts';

// The associations a batch of new records chooses, read ahead set-wise (docs/decisions/0135, issue 50): a save checks
// that every chosen record is one the association offers — Effective, within its data range, readable by the saver —
// by reading the chosen ids through the query engine (chosenRecords); an import did that once a record. Here the ids
// of the whole batch are read in one query per association form and data range, with the same filter the save
// builds, and the save's chosenRecords answers from that read. It answers only what was read exactly so (the same
// form, the same filter, every id asked among those read); anything else is read as before.

type Row = Record<string, unknown>;
const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);
/** What the save adds to the data range (data-link-save.ts: a chosen record must be Effective). */
const EFFECTIVE: FilterNode = { field: 'Status', operator: 'Equal', value: 1 };
/** chosenRecords reads at most a page of 500 ids. */
const CHUNK = 500;

const keyOf = (schemaCode: string, filter: FilterNode | undefined) => `${schemaCode}\u0000${JSON.stringify(filter ?? null)}`;

/** A batch's records as a save takes them: main values and sub-table rows. */
export interface BatchInput {
  values: Row;
  children: Record<string, Row[]>;
}

export class ChosenAhead implements ChosenAheadAnswers {
  private readonly reads = new Map<string, { asked: Set<string>; found: Map<string, Row> }>();

  /** The records chosenRecords would answer, when every id was read ahead under this filter; else undefined. */
  answer(association: Pick<Association, 'schemaCode'>, objectIds: readonly string[], filter: FilterNode | undefined): Row[] | undefined {
    const read = this.reads.get(keyOf(association.schemaCode, filter));
    if (!read || !objectIds.every((id) => read.asked.has(id))) return undefined;
    return objectIds.flatMap((id) => (read.found.has(id) ? [read.found.get(id)!] : []));
  }

  /**
   * Reads the records that `inputs` (new records of `form`) choose in its associations, as `ctx` may read them, on
   * `ctx.db` (the batch's transaction). An association of the form itself is left to the save (the batch writes that
   * form); a data range that does not compile, or a read that fails, too (the save reports it as it did).
   */
  static async read(ctx: NodeContext, form: RuntimeForm, inputs: readonly BatchInput[]): Promise<ChosenAhead> {
    const ahead = new ChosenAhead();
    const wanted = new Map<string, { association: Association; filter: FilterNode; ids: Set<string> }>();
    const want = (association: Association, ids: string[], range: () => FilterNode | undefined) => {
      if (!ids.length) return;
      let filter: FilterNode;
      try {
        const r = range();
        filter = r ? { type: 'And', children: [EFFECTIVE, r] } : EFFECTIVE;
      } catch {
        return;
      }
      const key = keyOf(association.schemaCode, filter);
      let entry = wanted.get(key);
      if (!entry) wanted.set(key, (entry = { association, filter, ids: new Set() }));
      for (const id of ids) entry.ids.add(id);
    };
    const associations = controlsOf(form).map(associationOf).filter((a) => a !== null && a.schemaCode !== form.node.code) as Association[];
    for (const association of associations) {
      for (const input of inputs) {
        if (!association.gridCode) {
          want(association, idsOf(input.values[association.code]), () => rangeFilter(association, input.values));
          continue;
        }
        for (const row of input.children[association.gridCode] ?? []) {
          want(association, idsOf(row[association.code]), () => rangeFilter(association, { ...input.values, ...input.children }, row));
        }
      }
    }
    for (const [key, { association, filter, ids }] of wanted) {
      const list = [...ids];
      const read = { asked: new Set<string>(), found: new Map<string, Row>() };
      try {
        for (let i = 0; i < list.length; i += CHUNK) {
          const chunk = list.slice(i, i + CHUNK);
          for (const record of await chosenRecords(ctx, association, chunk, filter)) read.found.set(String(record.ObjectId), record);
          for (const id of chunk) read.asked.add(id);
        }
      } catch {
        // Left to the save, record by record (its error is the one reported).
      }
      if (read.asked.size) ahead.reads.set(key, read);
    }
    return ahead;
  }
}
