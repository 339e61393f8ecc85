import { findFormulaCycles } from '@tritium/shared/formula/index';
import { contracts } from '@tritium/shared';
import { engineSchemaName } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getFormNodeOrThrow } from './form-access.ts';
import { customIndexesOf, findFormSchema, formTablesOf, insertDraftIfMissing, markPublished, updateDraft, type FormSchemaRow } from './form-design.repo.ts';
import { formModelOf } from './form-model.ts';
import { planPublish } from './ddl-planner.ts';
import { publishSummary } from './publish-summary.ts';
import { applyPlan, lockFormTables } from './ddl-executor.ts';
import { inFormTransaction } from './form-lock.ts';
import { recordOperation } from '../audit/oplog.ts';
import { dropTextTwinsBeforeAlter, presentAfterRenames, syncTrigramIndexes } from './trigram-indexes.ts';
import { publishRulesAndRollups } from './rules-port.ts';
import { publishTreeStructure } from './tree-structure.ts';
import { assertControlsComplete } from './control-completeness.ts';

// The designer's load, save and publish (calls.md §7 "Form design", docs/decisions/0006).

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A saved definition as stored (checked by FormDefinition when it was saved). */
export const definitionOf = (json: unknown) => json as contracts.FormDefinition;

function newDraft(node: NodeRow): contracts.FormDefinition {
  return contracts.FormDefinition.parse({ attributes: { displayName: node.display_name }, controls: [] });
}

/** The form's row, its first draft written on first use (named after the node, no controls). */
export async function ensureDraft(edb: EngineExecutor, node: NodeRow, userId: string): Promise<FormSchemaRow> {
  const found = await findFormSchema(edb, node.code);
  if (found) return found;
  await insertDraftIfMissing(edb, node.code, newDraft(node), userId);
  return (await findFormSchema(edb, node.code))!;
}

function presentDesign(node: NodeRow, row: FormSchemaRow): contracts.FormDesignLoadResult {
  const publishedTime = iso(row.published_time);
  return {
    schemaCode: node.code,
    appCode: node.app_code,
    nodeType: node.node_type,
    draft: { definition: definitionOf(row.draft), version: row.draft_version, savedTime: iso(row.draft_saved_time)! },
    published:
      row.published && row.published_version !== null && publishedTime
        ? { definition: definitionOf(row.published), version: row.published_version, savedTime: publishedTime, publishedTime }
        : null,
    hasUnpublishedChanges: row.published_version !== row.draft_version,
  };
}

export async function loadDesign(ctx: NodeContext, schemaCode: string): Promise<contracts.FormDesignLoadResult> {
  const edb = engineOf(ctx);
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), schemaCode, 'administer');
  return presentDesign(node, await ensureDraft(edb, node, ctx.userId));
}

/** Saves the draft over the version the designer loaded; a stale base is refused and nothing changes. */
export async function saveDesign(ctx: NodeContext, body: { schemaCode: string; baseVersion: number; definition: contracts.FormDefinition }) {
  const edb = engineOf(ctx);
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), body.schemaCode, 'administer');
  await ensureDraft(edb, node, ctx.userId);
  const saved = await updateDraft(edb, node.code, body.baseVersion, body.definition, ctx.userId);
  if (!saved) {
    const current = await findFormSchema(edb, node.code);
    throw new AppError('FormDraftConflict', { detail: { baseVersion: body.baseVersion, currentVersion: current?.draft_version } });
  }
  return { version: saved.draft_version, savedTime: iso(saved.draft_saved_time)! };
}

/**
 * Publishes draft `version`: plans the DDL from the published definition to that draft, refuses (240003, nothing
 * applied) while a change that loses data is not confirmed, otherwise applies it and records the draft as
 * published, all in one transaction. Until it commits the published tables serve as before.
 */
export async function publishDesign(ctx: NodeContext, body: { schemaCode: string; version: number; confirm: string[]; dryRun: boolean }): Promise<contracts.FormDesignPublishResult> {
  return inFormTransaction(ctx, async ({ edb, viewer }) => {
    const node = await getFormNodeOrThrow(edb, viewer, body.schemaCode, 'administer');
    const row = await findFormSchema(edb, node.code, { forUpdate: true });
    if (!row || row.draft_version !== body.version) {
      throw new AppError('FormDraftConflict', { detail: { version: body.version, currentVersion: row?.draft_version } });
    }
    // Controls missing required settings would publish empty (docs/decisions/0029).
    assertControlsComplete(definitionOf(row.draft));
    // A formula that depends on itself, directly or through others, has no value (docs/decisions/0012).
    const cycles = findFormulaCycles(definitionOf(row.draft));
    if (cycles.length) throw new AppError('FormFormulaCycle', { detail: { cycles } });
    // Rollups' sources, business rules and their cycles; the draft rules go live with the form (docs/decisions/0015).
    await publishRulesAndRollups(edb, node.code, definitionOf(row.draft), { dryRun: body.dryRun });
    const schema = engineSchemaName(ctx.engineCode);
    const tables = await formTablesOf(edb, node.code);
    if (!body.dryRun) await lockFormTables(edb, schema, tables.values());
    const plan = await planPublish(edb, {
      schema,
      schemaCode: node.code,
      tables,
      published: formModelOf(definitionOf(row.published)),
      draft: formModelOf(definitionOf(row.draft)),
      customIndexes: await customIndexesOf(edb, node.code),
    });
    const summary = publishSummary(plan.changes, definitionOf(row.published), definitionOf(row.draft));
    if (body.dryRun) return { publishedVersion: row.published_version ?? 0, publishedTime: iso(row.published_time), changes: plan.changes, summary, applied: false };
    const confirmed = new Set(body.confirm);
    const unconfirmed = plan.changes.filter((c) => c.needsConfirmation && !confirmed.has(c.key)).map((c) => c.key);
    if (unconfirmed.length) throw new AppError('FormPublishNeedsConfirmation', { detail: { changes: plan.changes, unconfirmed } });
    // The searched columns the table has before the plan alters it (a conversion drops their indexes), by their new names.
    const present = plan.main.create ? new Set<string>() : await presentAfterRenames(edb, schema, plan.main, formModelOf(definitionOf(row.published)).columns);
    if (!plan.main.create) await dropTextTwinsBeforeAlter(edb, schema, plan.main);
    await applyPlan(edb, schema, node.code, plan);
    // "Contains" on the searched text reads lowered twins with trigram indexes (docs/decisions/0013-query-engine.md, 0103, 0119).
    await syncTrigramIndexes(edb, schema, node.code, formModelOf(definitionOf(row.draft)).columns, present);
    // Tree display: the parent column's index, and no switching it on over rows that break the limits (0023).
    await publishTreeStructure(edb, { schema, schemaCode: node.code, table: plan.main.table, published: row.published ? definitionOf(row.published) : null, draft: definitionOf(row.draft) });
    // The publish time is the schema's cache stamp (form/loadsetting): it moves only when something was published.
    const changed = row.published_version !== row.draft_version || plan.changes.length > 0;
    const publishedTime = await markPublished(edb, node.code, row.draft_version, row.draft, changed);
    if (changed) {
      await recordOperation(edb, ctx, { kind: 'form', action: 'publish', objectId: node.code, objectName: node.display_name, before: { version: row.published_version ?? 0 }, after: { version: row.draft_version, summary } });
    }
    return { publishedVersion: row.draft_version, publishedTime: publishedTime.toISOString(), changes: plan.changes, summary, applied: true };
  });
}
