import { controlDisplayText, type DisplayContext } from '@tritium/shared/controls/index';
import { BIZ_OBJECT_STATUS_LABELS } from '@tritium/shared/constants/data-status';
import type { contracts } from '@tritium/shared';
import type { ViewField } from '../api/list-view-api.ts';

// What a cell shows: a control's display text from the registry (with the form's options), a system field's own
// text; unit ids become names through the names provider of the form runtime.

type Control = { type: string; code: string; options: unknown; controls?: Control[]; panes?: { controls: Control[] }[] };

/** Main-table controls of a published definition by code (layouts and tabs opened, sub-tables left closed). */
export function controlsByCode(definition: contracts.FormDefinition | undefined): Map<string, Control> {
  const out = new Map<string, Control>();
  const walk = (list: readonly Control[] | undefined) => {
    for (const c of list ?? []) {
      if (c.type === 'gridView') continue;
      out.set(c.code, c);
      walk(c.controls);
      for (const pane of c.panes ?? []) walk(pane.controls);
    }
  };
  walk(definition?.controls as unknown as Control[]);
  return out;
}

const UNIT_SYSTEM = ['CreatedBy', 'ModifiedBy', 'OwnerId', 'OwnerDeptId'];

export function cellText(field: ViewField, value: unknown, controls: Map<string, Control>, context: DisplayContext): string {
  if (value == null || value === '') return '';
  if (field.code === 'Status') return BIZ_OBJECT_STATUS_LABELS[value as keyof typeof BIZ_OBJECT_STATUS_LABELS] ?? String(value);
  if (UNIT_SYSTEM.includes(field.code)) return context.unitName?.(String(value)) ?? String(value);
  if (field.code === 'CreatedTime' || field.code === 'ModifiedTime') return controlDisplayText({ type: 'dateTime', options: { displayFormat: 'yyyy-mm-dd hh:mm' } }, value, context);
  const control = controls.get(field.code);
  return control ? controlDisplayText(control, value, context) : String(value);
}

/** The unit ids of a page (people and departments) to look up names for. */
export function unitIdsOf(rows: Record<string, unknown>[], fields: ViewField[]): string[] {
  const codes = fields.filter((f) => UNIT_SYSTEM.includes(f.code) || ['user', 'users', 'unit', 'units'].includes(f.dataType)).map((f) => f.code);
  const ids = new Set<string>();
  for (const row of rows) {
    for (const code of codes) {
      const v = row[code];
      for (const id of Array.isArray(v) ? v : [v]) if (typeof id === 'string' && id) ids.add(id);
    }
  }
  return [...ids];
}
