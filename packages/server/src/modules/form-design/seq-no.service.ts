import { AppError } from '../../lib/app-error.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getFormNodeOrThrow } from './form-access.ts';
import { deleteSeqNoCounters, seqNoCountersOf } from './form-design.repo.ts';
import { definitionOf, ensureDraft } from './form-design.service.ts';
import { flattenControls } from './form-model.ts';

// Sequence numbers (calls.md §7 "seqno reset and info"): the counters of a form's sequence-number control, one per
// reset period. Records take numbers once the business-data runtime exists; these calls read and reset the counters.

async function seqNoForm(ctx: NodeContext, schemaCode: string) {
  const edb = engineOf(ctx);
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), schemaCode, 'administer');
  const row = await ensureDraft(edb, node, ctx.userId);
  // The published form gives the numbers; before the first publish the draft says what will.
  const definition = definitionOf(row.published ?? row.draft);
  const place = flattenControls(definition.controls).find((p) => p.type.key === 'seqNo');
  const control = place ? { code: place.control.code, resetMode: String((place.control.options as { resetMode?: string }).resetMode ?? 'none') } : null;
  return { edb, node, control };
}

export async function seqNoInfo(ctx: NodeContext, schemaCode: string) {
  const { edb, node, control } = await seqNoForm(ctx, schemaCode);
  const list = (await seqNoCountersOf(edb, node.code)).map((r) => ({ controlCode: r.control_code, period: r.period, value: Number(r.value) }));
  return { list, control };
}

/** Forgets the control's counters: the next record is numbered 1 again. */
export async function resetSeqNo(ctx: NodeContext, body: { schemaCode: string; controlCode: string }) {
  const { edb, node, control } = await seqNoForm(ctx, body.schemaCode);
  if (!control || control.code.toLowerCase() !== body.controlCode.toLowerCase()) throw new AppError('SeqNoControlNotFound', { detail: { controlCode: body.controlCode } });
  return { removed: await deleteSeqNoCounters(edb, node.code, control.code) };
}
