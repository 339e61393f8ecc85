/**
 * Keys of a control's options that its schema does not know (docs/decisions/0029). zod drops unknown keys while it
 * parses, so a misspelt setting (a display name under the wrong key, a formula's expression under another name) would
 * be saved without it and without a word: comparing what was sent with what the schema kept names each such key.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** Paths (below `path`) of the object keys in `input` that `output` no longer has; arrays are compared item by item. */
export function droppedKeys(input: unknown, output: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(input) && Array.isArray(output)) {
    // A list the schema rebuilt to another length (e.g. de-duplicated) has no item-by-item match: nothing to compare.
    if (input.length !== output.length) return [];
    return input.flatMap((item, i) => droppedKeys(item, output[i], [...path, i]));
  }
  if (!isPlainObject(input) || !isPlainObject(output)) return [];
  const out: (string | number)[][] = [];
  for (const [key, value] of Object.entries(input)) {
    if (!(key in output)) {
      // An explicit undefined is not a setting; JSON never sends one.
      if (value !== undefined) out.push([...path, key]);
      continue;
    }
    out.push(...droppedKeys(value, output[key], [...path, key]));
  }
  return out;
}
