import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { CheckedInput } from './record-input.ts';
import type { DataField, RuntimeForm } from './runtime-form.ts';

// Values a save presents in place of the value it stores: a control type whose value may only come from a step taken
// beforehand (the face-recognition control: a passing face check's id, docs/decisions/0123 "Face check") registers a
// resolver here, from a layer above business data (docs/decisions/0026), and every save of the form (saveRecordIn:
// the form, the open API, rules, flows) hands such a field's new value to it before the values' references are
// checked. An empty value, or the value the record already holds, is not presented and passes as it is.

export type PresentedValueResolver = (
  edb: EngineExecutor,
  ctx: NodeContext,
  form: RuntimeForm,
  field: DataField,
  presented: unknown,
  objectId: string,
) => Promise<unknown>;

const resolvers = new Map<string, PresentedValueResolver>();

/** Registers the resolver of a control type (by registry key); a later one replaces it. */
export function setPresentedValueResolver(controlType: string, resolver: PresentedValueResolver): void {
  resolvers.set(controlType, resolver);
}

/** Replaces each presented value of the save by what its resolver answers (or lets the resolver refuse the save). */
export async function resolvePresentedValues(
  edb: EngineExecutor,
  ctx: NodeContext,
  form: RuntimeForm,
  checked: CheckedInput,
  before: Record<string, unknown> | undefined,
  objectId: string,
): Promise<void> {
  if (!resolvers.size) return;
  for (const field of form.fields) {
    const resolve = resolvers.get(field.type.key);
    if (!resolve || !(field.code in checked.values)) continue;
    const value = checked.values[field.code];
    if (value == null || value === '' || value === before?.[field.code]) continue;
    checked.values[field.code] = await resolve(edb, ctx, form, field, value, objectId);
  }
}

/** The values without those only a presented step may set (a copy of a record does not carry them over). */
export function withoutPresentedValues(form: RuntimeForm, values: Record<string, unknown>): Record<string, unknown> {
  const presented = new Set(form.fields.filter((f) => resolvers.has(f.type.key)).map((f) => f.code));
  return Object.fromEntries(Object.entries(values).filter(([code]) => !presented.has(code)));
}
