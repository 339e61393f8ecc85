import { controlTypeByKey, type ControlDefinition } from '@tritium/shared/controls/index';
import type { RuntimeControl } from '../fields/field-types.ts';

/**
 * The published control tree as the runtime draws it: fields, sub-tables (their columns are fields of a row),
 * layouts (one row of several columns), tabs (panes) and the display-only controls.
 */
export type RuntimeNode =
  | { kind: 'field'; control: RuntimeControl }
  | { kind: 'grid'; control: RuntimeControl; columns: RuntimeControl[] }
  | { kind: 'layout'; control: RuntimeControl; children: RuntimeNode[] }
  | { kind: 'tab'; control: RuntimeControl; panes: { title: string; children: RuntimeNode[] }[] };

export function runtimeControl(definition: ControlDefinition): RuntimeControl {
  const type = controlTypeByKey(definition.type);
  const options = definition.options as Record<string, unknown>;
  const label = typeof options.displayName === 'string' && options.displayName ? options.displayName : type.displayName['zh-CN'];
  return { code: definition.code, type, options, label };
}

/** Hidden controls (visible off) are left out; hide conditions wait for the formula issue. */
const shown = (definition: ControlDefinition) => (definition.options as { visible?: boolean }).visible !== false;

export function runtimeTree(controls: readonly ControlDefinition[]): RuntimeNode[] {
  return controls.filter(shown).map((definition): RuntimeNode => {
    const control = runtimeControl(definition);
    if (definition.panes) return { kind: 'tab', control, panes: definition.panes.map((pane) => ({ title: pane.title, children: runtimeTree(pane.controls) })) };
    if (control.type.dataType === 'children') return { kind: 'grid', control, columns: (definition.controls ?? []).filter(shown).map(runtimeControl) };
    if (definition.controls) return { kind: 'layout', control, children: runtimeTree(definition.controls) };
    return { kind: 'field', control };
  });
}

/** Every field of the main table (through layouts and tabs) and every sub-table, for checks before saving. */
export function collectFields(nodes: readonly RuntimeNode[]): { fields: RuntimeControl[]; grids: { control: RuntimeControl; columns: RuntimeControl[] }[] } {
  const fields: RuntimeControl[] = [];
  const grids: { control: RuntimeControl; columns: RuntimeControl[] }[] = [];
  const walk = (list: readonly RuntimeNode[]) => {
    for (const node of list) {
      if (node.kind === 'field') fields.push(node.control);
      else if (node.kind === 'grid') grids.push({ control: node.control, columns: node.columns });
      else if (node.kind === 'layout') walk(node.children);
      else node.panes.forEach((pane) => walk(pane.children));
    }
  };
  walk(nodes);
  return { fields, grids };
}
