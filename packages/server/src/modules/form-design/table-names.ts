import { createHash } from 'node:crypto';

// Names in the engine schema (docs/decisions/0006 "Naming"). PostgreSQL truncates identifiers past 63 bytes, so a
// longer name keeps its first 54 characters and ends with 8 hex digits of a hash of the whole. Prefixes keep the
// kinds apart: tables i_, primary keys xk_, sub-table parent indexes xp_, custom indexes xc_, the main table's own indexes xo_ / xw_ / xd_ / xb_. Codes are ASCII
// letters, digits and underscore (controlCodeSchema, NodeCode), so a character is a byte.

export const MAX_IDENTIFIER = 63;

export function hash8(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 8);
}

/** `base` when it fits (and no salt is given), otherwise its first 54 characters, '_' and a hash of base and salt. */
export function fitIdentifier(base: string, salt = ''): string {
  if (base.length <= MAX_IDENTIFIER && !salt) return base;
  return `${base.slice(0, MAX_IDENTIFIER - 9)}_${hash8(`${base}#${salt}`)}`;
}

/** The name a form's main table would like: i_<schema code, lower-cased>. */
export const mainTableBase = (schemaCode: string): string => `i_${schemaCode.toLowerCase()}`;

/** The name a sub-table would like: i_<schema code>__<grid code>, both lower-cased. */
export const childTableBase = (schemaCode: string, gridCode: string): string => `i_${schemaCode.toLowerCase()}__${gridCode.toLowerCase()}`;

/** The candidates for a new table, in order: the base (when it fits), then salted variants. */
export function* tableNameCandidates(base: string): Generator<string> {
  if (base.length <= MAX_IDENTIFIER) yield base;
  for (let n = 1; ; n++) yield fitIdentifier(base, String(n));
}

const rest = (table: string) => table.replace(/^i_/, '');
export const primaryKeyName = (table: string): string => fitIdentifier(`xk_${rest(table)}`);
export const parentIndexName = (table: string): string => fitIdentifier(`xp_${rest(table)}`);
/**
 * The main table's own indexes: the lists' default order (xo_), and the data scopes' owner (xw_), department (xd_)
 * and creator (xb_).
 */
export const systemIndexNames = (table: string) => ({
  order: fitIdentifier(`xo_${rest(table)}`),
  owner: fitIdentifier(`xw_${rest(table)}`),
  ownerDept: fitIdentifier(`xd_${rest(table)}`),
  creator: fitIdentifier(`xb_${rest(table)}`),
});
/** A custom index is named after its table and its fields, so the same fields always give the same name. */
export const customIndexName = (table: string, fields: readonly string[]): string => fitIdentifier(`xc_${rest(table)}_${hash8(fields.join(','))}`);

/** The key of a grid view in form_tables: '' for the main table, the lower-cased grid code otherwise. */
export const gridKeyOf = (gridCode?: string): string => (gridCode ?? '').toLowerCase();
