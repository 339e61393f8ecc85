// Codes of forms inside definitions, remapped when an app's forms get new codes: an app's copy (app-copy.job.ts) and
// an app package's install (docs/decisions/0130).

/** Keys whose string value names a form: `schemaCode`, and `…SchemaCode` (an automation's `targetSchemaCode`, …). */
export const isFormCodeKey = (key: string): boolean => key === 'schemaCode' || key.endsWith('SchemaCode');

/**
 * A copied form definition: every `schemaCode` option naming a form of the copied app names its copy instead. Also
 * the `…SchemaCode` keys (automations, rules) — an app package's install remaps whole definitions with it.
 */
export function remapSchemaCodes(value: unknown, newCodes: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => remapSchemaCodes(item, newCodes));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, isFormCodeKey(key) && typeof item === 'string' ? (newCodes.get(item) ?? item) : remapSchemaCodes(item, newCodes)]),
  );
}
