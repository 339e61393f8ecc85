import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';
import { isHidden } from '../permission/form-rights.ts';
import { caseFreeLike, containsPattern, MAIN } from '../query/filter-compiler.ts';
import { foldedColumnName, TRIGRAM_CONTROL_TYPES } from '../form-design/trigram-indexes.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// The statement of a record search (docs/decisions/0040): per form, SELECTs whose WHERE is "some searchable column
// ILIKE '%keyword%'" (read through its lowered twin, which has a pg_trgm GIN index, so PostgreSQL ORs bitmap index
// scans; decision 0103) AND the query
// engine's narrowing for the caller (view right, permitted data scopes). The forms' SELECTs (two each: title matches,
// matches elsewhere) are joined by UNION ALL and ordered once: title matches first, then newer records. A field hidden
// from the caller is neither matched nor shown: its column is left out of the statement.

/** A column searched, with how its text is read. */
export interface SearchColumn {
  code: string;
  /** Display name of the field (the title and the sequence number have the product's names). */
  name: string;
  /** Checkbox lists store their item texts as text[]: matched by item, read joined. */
  isList: boolean;
  /** For lists: the items whose text holds the keyword (matched here, by the form's own item list). */
  items?: string[];
  /** The column has a lowered twin (decision 0103): matched through it. */
  folded?: boolean;
}

const TITLE = { 'zh-CN': '数据标题', 'en-US': 'Title' };
const SEQ_NO = { 'zh-CN': '流水号', 'en-US': 'Sequence number' };
const LIST_SEPARATOR = '、';

const displayNameOf = (options: Record<string, unknown>, fallback: string) => (typeof options.displayName === 'string' && options.displayName) || fallback;

/** The columns of a form the caller may search for this keyword: Name, SeqNo, visible text and choice fields. */
export function searchColumnsOf(form: RuntimeForm, keyword: string, locale: 'zh-CN' | 'en-US' = 'zh-CN'): SearchColumn[] {
  const folded = (code: string) => form.folded.has(code);
  const columns: SearchColumn[] = [{ code: 'Name', name: TITLE[locale], isList: false, folded: folded('Name') }];
  if (form.seqNo) columns.push({ code: 'SeqNo', name: displayNameOf(form.seqNo.options, SEQ_NO[locale]), isList: false, folded: folded('SeqNo') });
  const lower = keyword.toLocaleLowerCase();
  for (const field of form.fields) {
    if (isHidden(form.rights, field.code)) continue;
    const name = displayNameOf(field.options, field.code);
    if (TRIGRAM_CONTROL_TYPES.has(field.type.key)) columns.push({ code: field.code, name, isList: false, folded: folded(field.code) });
    else if (field.type.key === 'checkboxList') {
      // Option labels: the form's items that hold the keyword; a record matches when it has one of them.
      const defined = Array.isArray(field.options.defaultItems) ? (field.options.defaultItems as unknown[]) : [];
      const items = defined.filter((i): i is string => typeof i === 'string' && i.toLocaleLowerCase().includes(lower));
      if (items.length) columns.push({ code: field.code, name, isList: true, items });
    }
  }
  return columns;
}

const textArray = (values: string[]) => sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

function matchOf(column: SearchColumn, pattern: string): RawBuilder<SqlBool> {
  const ref = sql.ref(`${MAIN}.${column.code}`);
  if (column.isList) return sql<SqlBool>`${ref} && ${textArray(column.items!)}`;
  return caseFreeLike(ref, column.folded ? sql.ref(`${MAIN}.${foldedColumnName(column.code)}`) : null, pattern);
}

const textOf = (column: SearchColumn) => {
  const ref = sql.ref(`${MAIN}.${column.code}`);
  return column.isList ? sql`array_to_string(${ref}, ${LIST_SEPARATOR})` : sql`${ref}::text`;
};

export interface FormSearch {
  form: RuntimeForm;
  columns: SearchColumn[];
  /** The caller's narrowing of the form (query engine), on alias MAIN. */
  narrowing: RawBuilder<SqlBool>;
}

export interface SearchRow {
  schema_code: string;
  object_id: string;
  title: string | null;
  seq_no: string | null;
  field_code: string;
  field_text: string | null;
  created_time: Date | string | null;
}

/**
 * Matches counted (up to this many) before the search: fewer are read whole and sorted; more are found by walking the
 * list index, which is dense enough with them to stop soon.
 */
export const SEARCH_PROBE_CAP = 2000;

/** One part of a form's search: the records whose title matches, or those that match only elsewhere. */
interface Branch {
  search: FormSearch;
  titleHit: 0 | 1;
  fieldCode: RawBuilder<unknown>;
  fieldText: RawBuilder<unknown>;
  where: RawBuilder<SqlBool>;
}

function branchesOf(search: FormSearch, pattern: string): Branch[] {
  const [title, ...others] = search.columns.map((c) => ({ column: c, match: matchOf(c, pattern) }));
  const branches: Branch[] = [{ search, titleHit: 1, fieldCode: sql`${title!.column.code}`, fieldText: textOf(title!.column), where: title!.match }];
  if (others.length) {
    branches.push({
      search,
      titleHit: 0,
      fieldCode: sql`(case ${sql.join(others.map((o) => sql`when ${o.match} then ${o.column.code}`), sql` `)} end)`,
      fieldText: sql`(case ${sql.join(others.map((o) => sql`when ${o.match} then ${textOf(o.column)}`), sql` `)} end)`,
      where: sql<SqlBool>`(${sql.join(others.map((o) => o.match), sql` or `)}) and not coalesce(${title!.match}, false)`,
    });
  }
  return branches;
}

const ref = (code: string) => sql.ref(`${MAIN}.${code}`);
const from = (schema: string, b: Branch) => sql`from ${sql.id(schema, b.search.form.mainTable)} as ${sql.id(MAIN)} where ${b.where} and ${b.search.narrowing}`;

/** How many records a branch matches, up to SEARCH_PROBE_CAP: one statement for every branch. */
async function probe(edb: EngineExecutor, schema: string, branches: Branch[]): Promise<number[]> {
  const counts = branches.map((b, i) => sql`select ${i}::int as i, (select count(*)::int from (select 1 ${from(schema, b)} limit ${SEARCH_PROBE_CAP}) x) as n`);
  const rows = (await sql<{ i: number; n: number }>`${sql.join(counts, sql` union all `)}`.execute(anyDb(edb))).rows;
  const out = branches.map(() => 0);
  for (const r of rows) out[Number(r.i)] = Number(r.n);
  return out;
}

/**
 * A branch's newest `limit` matches. Few matches: read them all (the trigram bitmaps) and sort, behind OFFSET 0 so the
 * planner cannot trade that for an index walk. Many: ordered like the table's list index (CreatedTime desc, ObjectId
 * desc), so PostgreSQL walks it and stops after `limit`. Left to itself the planner walks the index for a rare word it
 * thinks common, reading the whole table (docs/decisions/0040).
 */
function branchSelect(schema: string, b: Branch, matches: number, limit: number) {
  const columns = sql`${b.search.form.node.code}::text as schema_code, ${ref('ObjectId')}::text as object_id, ${ref('Name')}::text as title,
    ${ref('SeqNo')}::text as seq_no, ${b.fieldCode}::text as field_code, ${b.fieldText}::text as field_text,
    ${ref('CreatedTime')} as created_time, ${sql.lit(b.titleHit)} as title_hit`;
  if (matches < SEARCH_PROBE_CAP) {
    return sql`(select * from (select ${columns} ${from(schema, b)} offset 0) s order by created_time desc, object_id desc limit ${limit})`;
  }
  return sql`(select ${columns} ${from(schema, b)} order by ${ref('CreatedTime')} desc, ${ref('ObjectId')} desc limit ${limit})`;
}

/**
 * Rows `offset … offset + limit` of the hits over all the forms, best first. Each branch contributes at most
 * offset + limit rows, so the outer sort never sees more than 2 × forms × (offset + limit).
 */
export async function searchRows(edb: EngineExecutor, schema: string, searches: FormSearch[], keyword: string, offset: number, limit: number): Promise<SearchRow[]> {
  const pattern = containsPattern(keyword);
  const branches = searches.flatMap((s) => branchesOf(s, pattern));
  if (!branches.length) return [];
  const matches = await probe(edb, schema, branches);
  const selects = branches.flatMap((b, i) => (matches[i]! > 0 ? [branchSelect(schema, b, matches[i]!, offset + limit)] : []));
  if (!selects.length) return [];
  const statement = sql<SearchRow>`select schema_code, object_id, title, seq_no, field_code, field_text, created_time
    from (${sql.join(selects, sql` union all `)}) as hits
    order by title_hit desc, created_time desc, object_id desc
    limit ${limit} offset ${offset}`;
  return (await statement.execute(anyDb(edb))).rows;
}
