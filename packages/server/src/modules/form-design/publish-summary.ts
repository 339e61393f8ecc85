import type { contracts } from '@tritium/shared';
import { columnOf, flattenControls } from './form-model.ts';

type Definition = Pick<contracts.FormDefinition, 'controls'> | null | undefined;

const placeKey = (gridCode: string | undefined, code: string) => `${(gridCode ?? '').toLowerCase()}/${code.toLowerCase()}`;

/** The display names of a definition's controls by place; a sub-table's fields read "明细.金额", as in the reports. */
function namesOf(definition: Definition): Map<string, string> {
  const places = flattenControls(definition?.controls ?? []);
  const own = (control: (typeof places)[number]['control']) => String((control.options as { displayName?: unknown }).displayName ?? control.code);
  const grids = new Map(places.filter((p) => p.control.type === 'gridView').map((p) => [p.control.code, own(p.control)]));
  return new Map(places.map((p) => [placeKey(p.gridCode, p.control.code), p.gridCode ? `${grids.get(p.gridCode) ?? p.gridCode}.${own(p.control)}` : own(p.control)]));
}

/** What a publish plan changes, in the designer's words: fields and sub-tables added, removed, or changed (type or code). */
export function publishSummary(changes: readonly contracts.SchemaChange[], published: Definition, draft: Definition): contracts.PublishSummary {
  const before = namesOf(published);
  const after = namesOf(draft);
  const added = new Set<string>();
  const removed = new Set<string>();
  const changed = new Set<string>();
  const name = (names: Map<string, string>, gridCode: string | undefined, code: string) => names.get(placeKey(gridCode, code)) ?? code;
  for (const c of changes) {
    if (c.kind === 'createTable') for (const p of flattenControls(draft?.controls ?? [])) if (!p.gridCode && columnOf(p)) added.add(name(after, undefined, p.control.code));
    if (c.kind === 'createChildTable') added.add(name(after, undefined, c.gridCode!));
    if (c.kind === 'dropChildTable') removed.add(name(before, undefined, c.gridCode!));
    if (c.kind === 'addColumn') added.add(name(after, c.gridCode, c.column!));
    if (c.kind === 'dropColumn') removed.add(name(before, c.gridCode, c.column!));
    if (c.kind === 'changeType' || c.kind === 'renameColumn') changed.add(name(after, c.gridCode, c.column!));
  }
  return { added: [...added], removed: [...removed], changed: [...changed] };
}
