import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';
import { isHidden } from '../permission/form-rights.ts';
import { containsPattern, MAIN } from '../query/filter-compiler.ts';
import { TRIGRAM_CONTROL_TYPES } from '../form-design/trigram-indexes.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// The statement of a record search (docs/decisions/0040): per form, one SELECT whose WHERE is "some searchable column
// ILIKE '%keyword%'" (each such column has a pg_trgm GIN index, so PostgreSQL ORs bitmap index scans) AND the query
// engine's narrowing for the caller (view right, permitted data scopes). The forms' SELECTs are joined by UNION ALL
// and ordered once: title matches first, then newer records. A field hidden from the caller is neither matched nor
// shown: its column is left out of the statement.

/** A column searched, with how its text is read. */
export interface SearchColumn {
  code: string;
  /** Display name of the field (the title and the sequence number have the product's names). */
  name: string;
  /** Checkbox lists store their item texts as text[]: matched by item, read joined. */
  isList: boolean;
  /** For lists: the items whose text holds the keyword (matched here, by the form's own item list). */
  items?: string[];
}

const TITLE = { 'zh-CN': '数据标题', 'en-US': 'Title' };
const SEQ_NO = { 'zh-CN': '流水号', 'en-US': 'Sequence number' };
const LIST_SEPARATOR = '、';

const displayNameOf = (options: Record<string, unknown>, fallback: string) => (typeof options.displayName === 'string' && options.displayName) || fallback;

/** The columns of a form the caller may search for this keyword: Name, SeqNo, visible text and choice fields. */
export function searchColumnsOf(form: RuntimeForm, keyword: string, locale: 'zh-CN' | 'en-US' = 'zh-CN'): SearchColumn[] {
  const columns: SearchColumn[] = [{ code: 'Name', name: TITLE[locale], isList: false }];
  if (form.seqNo) columns.push({ code: 'SeqNo', name: displayNameOf(form.seqNo.options, SEQ_NO[locale]), isList: false });
  const lower = keyword.toLocaleLowerCase();
  for (const field of form.fields) {
    if (isHidden(form.rights, field.code)) continue;
    const name = displayNameOf(field.options, field.code);
    if (TRIGRAM_CONTROL_TYPES.has(field.type.key)) columns.push({ code: field.code, name, isList: false });
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
  return column.isList ? sql<SqlBool>`${ref} && ${textArray(column.items!)}` : sql<SqlBool>`${ref} ilike ${pattern}`;
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

/** One form's SELECT, limited to what the page could need of it. */
function formSelect(schema: string, search: FormSearch, pattern: string, limit: number) {
  const { form, columns, narrowing } = search;
  const matches = columns.map((c) => matchOf(c, pattern));
  const fieldCase = sql.join(columns.map((c, i) => sql`when ${matches[i]} then ${c.code}`), sql` `);
  const textCase = sql.join(columns.map((c, i) => sql`when ${matches[i]} then ${textOf(c)}`), sql` `);
  const anyMatch = sql<SqlBool>`(${sql.join(matches, sql` or `)})`;
  const titleHit = sql<number>`(case when ${matches[0]} then 1 else 0 end)`;
  return sql`(select ${form.node.code}::text as schema_code, ${sql.ref(`${MAIN}.ObjectId`)}::text as object_id, ${sql.ref(`${MAIN}.Name`)}::text as title,
    ${sql.ref(`${MAIN}.SeqNo`)}::text as seq_no, (case ${fieldCase} end)::text as field_code, (case ${textCase} end)::text as field_text,
    ${sql.ref(`${MAIN}.CreatedTime`)} as created_time, ${titleHit} as title_hit
    from ${sql.id(schema, form.mainTable)} as ${sql.id(MAIN)}
    where ${anyMatch} and ${narrowing}
    order by title_hit desc, ${sql.ref(`${MAIN}.CreatedTime`)} desc nulls last, ${sql.ref(`${MAIN}.ObjectId`)} desc
    limit ${limit})`;
}

/**
 * Rows `offset … offset + limit` of the hits over all the forms, best first. Each form contributes at most
 * offset + limit rows, so the outer sort never sees more than forms × (offset + limit).
 */
export async function searchRows(edb: EngineExecutor, schema: string, searches: FormSearch[], keyword: string, offset: number, limit: number): Promise<SearchRow[]> {
  if (!searches.length) return [];
  const pattern = containsPattern(keyword);
  const branches = searches.map((s) => formSelect(schema, s, pattern, offset + limit));
  const statement = sql<SearchRow>`select schema_code, object_id, title, seq_no, field_code, field_text, created_time
    from (${sql.join(branches, sql` union all `)}) as hits
    order by title_hit desc, created_time desc nulls last, object_id desc
    limit ${limit} offset ${offset}`;
  return (await statement.execute(anyDb(edb))).rows;
}
