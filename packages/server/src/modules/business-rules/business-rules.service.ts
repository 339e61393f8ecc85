import type { contracts } from '@tritium/shared';
import type { BusinessRule } from '@tritium/shared/business-rules/index';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getFormNodeOrThrow } from '../form-design/form-access.ts';
import { definitionOf, ensureDraft } from '../form-design/form-design.service.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { rulesRowOf, saveDraftRules } from './business-rules.repo.ts';
import { ruleIssues } from './publish-checks.ts';

// The designer's business-rules tab (docs/decisions/0015): load and save a form's rules as a draft; publishing the
// form makes them the ones that run. Both need the form's app administered, like the designer.

async function designedForm(ctx: NodeContext, schemaCode: string) {
  const edb = engineOf(ctx);
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), schemaCode, 'administer');
  return { edb, node };
}

export async function loadRules(ctx: NodeContext, schemaCode: string): Promise<contracts.BusinessRuleLoadResult> {
  const { edb, node } = await designedForm(ctx, schemaCode);
  const row = await rulesRowOf(edb, node.code);
  const draft = row?.draft ?? [];
  const published = row?.published ?? [];
  return { schemaCode: node.code, draft, published, hasUnpublishedChanges: JSON.stringify(draft) !== JSON.stringify(published) };
}

/** Saves the draft rules (shape checked by the contract) and answers what publishing would refuse in them. */
export async function saveRules(ctx: NodeContext, body: { schemaCode: string; rules: BusinessRule[] }): Promise<contracts.BusinessRuleSaveResult> {
  const { edb, node } = await designedForm(ctx, body.schemaCode);
  await saveDraftRules(edb, node.code, body.rules, ctx.userId);
  const draft = definitionOf((await ensureDraft(edb, node, ctx.userId)).draft);
  return { schemaCode: node.code, issues: await ruleIssues(new FormCache(edb), node.code, draft, body.rules) };
}
