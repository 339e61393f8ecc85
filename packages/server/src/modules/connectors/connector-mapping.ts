import type { contracts } from '@tritium/shared';

// Templating of a connector's parameters and reading its outputs from the answer (docs/decisions/0120): no user code
// runs here, only `{{Name}}` places and small dotted paths.

const PLACE = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const ONLY_PLACE = /^\{\{\s*([^{}\s]+)\s*\}\}$/;

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The template with each `{{Name}}` replaced by the value's text ('' when absent). */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(PLACE, (_, name: string) => asText(values[name]));
}

/** A body parameter that is one place only keeps the value's own type (a number stays a number). */
export function fillValue(template: string, values: Record<string, unknown>): unknown {
  const only = ONLY_PLACE.exec(template);
  if (only) return values[only[1]!] ?? null;
  return fillTemplate(template, values);
}

/** Segments of `data.items[0].name`: names and indexes. */
function segmentsOf(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return out;
}

/** The value at a dotted path, undefined where the path leads nowhere; the empty path is the whole value. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of segmentsOf(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (Array.isArray(current) || !Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}

/** Each output by name: its path's value, or for a list with item fields, the list's items mapped. */
export function readOutputs(answer: unknown, outputs: contracts.ConnectorOutput[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const output of outputs) {
    const value = readPath(answer, output.path);
    if (output.itemFields && Array.isArray(value)) {
      const fields = Object.entries(output.itemFields);
      result[output.name] = value.map((item) => Object.fromEntries(fields.map(([name, path]) => [name, readPath(item, path) ?? null])));
    } else {
      result[output.name] = value ?? null;
    }
  }
  return result;
}
