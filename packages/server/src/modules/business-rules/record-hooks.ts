import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { BusinessRuleTrigger } from '@tritium/shared/business-rules/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { presentValues } from '../business-data/record.presenter.ts';
import { deleteRecord, findRecord, findRecordsByIds, type RecordRow } from '../business-data/records.repo.ts';
import { dropRecordFiles } from '../business-data/record-files.ts';
import { childrenOfRecord, childrenOfRecords, refreshDependants, refreshDependantsOf } from '../business-data/record-rollups.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { emitRecordEvents, recordEventsHeard, setRecordHooks, type RecordEvent } from '../business-data/record-hooks-port.ts';
import { ruleRecordOf, rulesFor, runOf, runRules, type RuleRun, type RuleWrites } from './rule-runner.ts';

// Where business data and workflows call in (docs/decisions/0015): after a save, around a removal, and when a flow
// makes its record effective or void. Each runs the rules that apply and refreshes the rollups that read the record,
// in the caller's transaction. Each answers the stored files removed on the way (their bytes go after the commit).

type Row = Record<string, unknown>;

/** Rule writes: saves and removals of the target's records through the business-data checks, as the acting user. */
function writesOf(run: RuleRun): RuleWrites {
  const edb = run.forms.edb;
  return {
    async insert(target, values) {
      // Effective at once, whatever the target: data written by a rule starts no workflow.
      const saved = await saveRecordIn(edb, run.ctx, target, { submit: true, values }, { status: () => BizObjectStatus.Effective });
      run.dropped.push(...saved.dropped);
    },
    async update(target, objectId, values, locked) {
      // Not the caller's record to edit: the rule acts for the form (workItem skips the creator/owner check).
      const saved = await saveRecordIn(edb, run.ctx, target, { objectId, submit: false, values }, { editRight: 'businessRule', ...(locked ? { locked } : {}) });
      run.dropped.push(...saved.dropped);
    },
    async remove(target, objectId) {
      const row = await findRecord(edb, target, objectId, { forUpdate: true });
      if (!row) return;
      const removal = await beforeRecordRemoved(edb, run.ctx, target, row);
      await deleteRecord(edb, target, objectId);
      run.dropped.push(...(await dropRecordFiles(edb, target, objectId)));
      run.dropped.push(...(await removal.afterRemoved()));
    },
  };
}

/** Runs the form's rules for `on` on the record as saved; the record is read back only when there are rules to run. */
async function fire(run: RuleRun, form: RuntimeForm, objectId: string, on: BusinessRuleTrigger): Promise<void> {
  const rules = await rulesFor(run, form, on);
  if (!rules.length) return;
  const edb = run.forms.edb;
  const row = await findRecord(edb, form, objectId);
  if (!row) return;
  await runRules(run, form, ruleRecordOf(form, row, await childrenOfRecord(edb, form, objectId)), on, writesOf(run), rules);
}

type SavedChange = { objectId: string; before: RecordRow | undefined; status: number; values: Row };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** What a save was, as automations' triggers name it (docs/decisions/0041), with the fields it changed. */
export function eventOfSave(form: RuntimeForm, change: SavedChange): RecordEvent {
  const kinds: string[] = [];
  const was = change.before === undefined ? null : Number(change.before.Status);
  const isEffective = change.status === BizObjectStatus.Effective;
  const before = change.before ? presentValues(form.fields, change.before) : undefined;
  const changed: Record<string, [unknown, unknown]> = {};
  if (before) for (const [code, after] of Object.entries(change.values)) if (code in before && !same(before[code], after)) changed[code] = [before[code], after];
  const anyChange = Object.keys(changed).length > 0;
  if (was === null) kinds.push('created');
  if ((was === null || was === BizObjectStatus.Draft) && change.status !== BizObjectStatus.Draft) kinds.push('submitted');
  if (isEffective && was !== BizObjectStatus.Effective) kinds.push('effective', 'effectiveOrUpdated');
  else if (isEffective && anyChange) kinds.push('updated', 'effectiveOrUpdated');
  if (anyChange) kinds.push('changing');
  return { objectId: change.objectId, kinds, ...(anyChange ? { changed } : {}) };
}

/**
 * After a save (business data's, a rule's, a work item's): effective rules when the record has just become
 * Effective, then the rollups of other forms that read it.
 */
export async function afterRecordSaved(
  edb: EngineExecutor,
  ctx: NodeContext,
  form: RuntimeForm,
  change: { objectId: string; before: RecordRow | undefined; status: number; values: Row },
): Promise<string[]> {
  const run = runOf(edb, ctx);
  const wasEffective = change.before !== undefined && Number(change.before.Status) === BizObjectStatus.Effective;
  if (change.status === BizObjectStatus.Effective && !wasEffective) await fire(run, form, change.objectId, 'effective');
  const before = change.before ? presentValues(form.fields, change.before) : undefined;
  await refreshDependants(run.forms, form, before, change.values);
  await emitRecordEvents(edb, ctx, form, [eventOfSave(form, change)]);
  return run.dropped.splice(0);
}

/**
 * afterRecordSaved for a batch of saves of one form (business data's set-wise inserts, docs/decisions/0033): the
 * rules read once, the records that became Effective read back together, their rules run record by record in order,
 * then the rollups of other forms that read any of them are refreshed once each.
 */
export async function afterRecordsSaved(
  edb: EngineExecutor,
  ctx: NodeContext,
  form: RuntimeForm,
  changes: { objectId: string; before: RecordRow | undefined; status: number; values: Row }[],
): Promise<string[]> {
  const run = runOf(edb, ctx);
  const effective = changes.filter((c) => c.status === BizObjectStatus.Effective && !(c.before !== undefined && Number(c.before.Status) === BizObjectStatus.Effective));
  const rules = effective.length ? await rulesFor(run, form, 'effective') : [];
  if (rules.length) {
    const ids = effective.map((c) => c.objectId);
    const rows = new Map((await findRecordsByIds(edb, form, ids)).map((row) => [String(row.ObjectId), row]));
    const children = await childrenOfRecords(edb, form, ids);
    for (const id of ids) {
      const row = rows.get(id);
      if (row) await runRules(run, form, ruleRecordOf(form, row, children.get(id)!), 'effective', writesOf(run), rules);
    }
  }
  await refreshDependantsOf(run.forms, form, changes.map((c) => ({ before: c.before ? presentValues(form.fields, c.before) : undefined, after: c.values })));
  await emitRecordEvents(edb, ctx, form, changes.map((c) => eventOfSave(form, c)));
  return run.dropped.splice(0);
}

/**
 * Before a record is removed: keeps what its void rules read. `afterRemoved` (once the row is gone) runs them when
 * the record was Effective — bottom to top — and refreshes the rollups that read it.
 */
export async function beforeRecordRemoved(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, row: RecordRow): Promise<{ afterRemoved(): Promise<string[]> }> {
  const run = runOf(edb, ctx);
  const objectId = String(row.ObjectId);
  const children = await childrenOfRecord(edb, form, objectId);
  // Automations hear of it while the record is still there (their conditions read it); their runs see the snapshot.
  const wasEffective = Number(row.Status) === BizObjectStatus.Effective;
  await emitRecordEvents(edb, ctx, form, [{ objectId, kinds: wasEffective ? ['deleted', 'voided'] : ['deleted'], snapshot: { ...presentValues(form.fields, row), ...children } }]);
  return {
    async afterRemoved() {
      if (Number(row.Status) === BizObjectStatus.Effective) await runRules(run, form, ruleRecordOf(form, row, children), 'void', writesOf(run));
      await refreshDependants(run.forms, form, presentValues(form.fields, row), undefined);
      return run.dropped.splice(0);
    },
  };
}

/**
 * A flow made its record effective (approved at its end) or void (reactivated after approval): the record's status
 * is already set. Runs the rules and refreshes the rollups that read the record (they count Effective records).
 */
export async function afterWorkflowStatus(edb: EngineExecutor, ctx: NodeContext, schemaCode: string, objectId: string, on: BusinessRuleTrigger): Promise<string[]> {
  const run = runOf(edb, ctx);
  const form = await run.forms.get(schemaCode);
  if (!form) return [];
  await fire(run, form, objectId, on);
  // The rollups that read the record: it is read only when some form rolls this one up.
  const row = (await run.forms.rollupDependants(schemaCode)).length ? await findRecord(edb, form, objectId) : undefined;
  if (row) {
    const values = presentValues(form.fields, row);
    await refreshDependants(run.forms, form, values, values);
  }
  await emitRecordEvents(edb, ctx, form, [{ objectId, kinds: on === 'effective' ? ['effective', 'effectiveOrUpdated'] : ['voided'] }]);
  return run.dropped.splice(0);
}

/**
 * Whether afterWorkflowStatus would do nothing for this form (no rules for `on`, no form rolling it up, no automation
 * hearing its events), told from the caches: then a flow's caller need not write the record's status before it
 * (docs/decisions/0101), nor call it.
 */
export async function workflowStatusIsQuiet(edb: EngineExecutor, ctx: NodeContext, schemaCode: string, on: BusinessRuleTrigger): Promise<boolean> {
  const run = runOf(edb, ctx);
  const form = await run.forms.get(schemaCode);
  if (!form) return true;
  if ((await rulesFor(run, form, on)).length || (await run.forms.rollupDependants(schemaCode)).length) return false;
  return !(await recordEventsHeard(edb, ctx, form));
}

/** Plugs these hooks into business data's saves and removals (its port, docs/decisions/0026); the app calls it at start. */
export function registerRecordHooks(): void {
  setRecordHooks({ afterRecordSaved, afterRecordsSaved, beforeRecordRemoved });
}
