import { sql } from 'kysely';
import type { contracts } from '@tritium/shared';
import { SYSTEM_FIELDS } from '@tritium/shared/constants/form';
import { FORM_INDEX_LIMITS } from '@tritium/shared/constants/limits';
import { engineSchemaName } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getFormNodeOrThrow } from './form-access.ts';
import { customIndexesOf, deleteCustomIndex, findFormSchema, formTablesOf, insertCustomIndex, relationNameFree, type CustomIndexRow } from './form-design.repo.ts';
import { definitionOf } from './form-design.service.ts';
import { formModelOf } from './form-model.ts';
import { inFormTransaction } from './form-lock.ts';
import { customIndexName } from './table-names.ts';
import { getPublishedFormOrThrow } from './form-schema.service.ts';

// A form's custom indexes (domain.md §5: up to 5 indexes of up to 5 fields): real B-tree indexes on the published
// main table, named from the table and the fields (docs/decisions/0006 "Custom indexes"). Administrators of the
// form's app only.

const present = (row: CustomIndexRow): contracts.CustomIndexDto => ({ indexName: row.index_name, fields: row.fields, createdTime: new Date(row.created_time).toISOString() });

export async function listCustomIndexes(ctx: NodeContext, schemaCode: string) {
  const edb = engineOf(ctx);
  const { node } = await getPublishedFormOrThrow(edb, ctx, schemaCode, 'administer');
  return { list: (await customIndexesOf(edb, node.code)).map(present), limits: { ...FORM_INDEX_LIMITS } };
}

/** Columns of the published main table that an index may use (sortable scalar types), by lower-cased name. */
function indexableColumns(published: contracts.FormDefinition): Map<string, string> {
  const out = new Map<string, string>();
  for (const field of SYSTEM_FIELDS) if (field !== 'ParentObjectId') out.set(field.toLowerCase(), field);
  for (const column of formModelOf(published).columns) {
    if (column.sqlType !== 'jsonb' && column.sqlType !== 'text[]') out.set(column.code.toLowerCase(), column.code);
  }
  return out;
}

async function publishedTable(edb: EngineExecutor, schemaCode: string) {
  const row = await findFormSchema(edb, schemaCode);
  const table = (await formTablesOf(edb, schemaCode)).get('');
  if (!row?.published || !table) throw new AppError('FormNotPublished', { detail: { schemaCode } });
  return { table, published: definitionOf(row.published) };
}

/** Creates an index on `fields`, or replaces `indexName` by one on `fields`; refused beyond the limits or on unknown fields. */
export async function saveCustomIndex(ctx: NodeContext, body: { schemaCode: string; fields: string[]; indexName?: string }): Promise<contracts.CustomIndexDto> {
  return inFormTransaction(ctx, async ({ edb, viewer }) => {
    const node = await getFormNodeOrThrow(edb, viewer, body.schemaCode, 'administer');
    const { table, published } = await publishedTable(edb, node.code);
    const columns = indexableColumns(published);
    const unknown = body.fields.filter((f) => !columns.has(f.toLowerCase()));
    if (unknown.length) throw new AppError('CustomIndexFieldInvalid', { detail: { fields: unknown } });
    const fields = body.fields.map((f) => columns.get(f.toLowerCase())!);

    const existing = await customIndexesOf(edb, node.code);
    const replaced = body.indexName ? existing.find((i) => i.index_name === body.indexName) : undefined;
    if (body.indexName && !replaced) throw new AppError('CustomIndexNotFound', { detail: { indexName: body.indexName } });
    const others = existing.filter((i) => i !== replaced);
    if (others.length >= FORM_INDEX_LIMITS.maxIndexes) throw new AppError('CustomIndexLimit', { detail: FORM_INDEX_LIMITS });
    const name = customIndexName(table, fields);
    if (replaced?.index_name === name) return present(replaced);
    if (others.some((i) => i.index_name === name || i.fields.join(',') === fields.join(','))) throw new AppError('CustomIndexDuplicate', { detail: { fields } });
    const schema = engineSchemaName(ctx.engineCode);
    if (!(await relationNameFree(edb, schema, name))) throw new AppError('CustomIndexDuplicate', { detail: { fields, indexName: name } });

    if (replaced) {
      await sql`drop index if exists ${sql.id(schema, replaced.index_name)}`.execute(edb);
      await deleteCustomIndex(edb, replaced.index_name);
    }
    await sql`create index ${sql.id(name)} on ${sql.id(schema, table)} (${sql.join(fields.map((f) => sql.id(f)))})`.execute(edb);
    await insertCustomIndex(edb, node.code, name, fields);
    return present((await customIndexesOf(edb, node.code)).find((i) => i.index_name === name)!);
  });
}

export async function removeCustomIndex(ctx: NodeContext, body: { schemaCode: string; indexName: string }) {
  return inFormTransaction(ctx, async ({ edb, viewer }) => {
    const node = await getFormNodeOrThrow(edb, viewer, body.schemaCode, 'administer');
    const index = (await customIndexesOf(edb, node.code)).find((i) => i.index_name === body.indexName);
    if (!index) throw new AppError('CustomIndexNotFound', { detail: { indexName: body.indexName } });
    await sql`drop index if exists ${sql.id(engineSchemaName(ctx.engineCode), index.index_name)}`.execute(edb);
    await deleteCustomIndex(edb, index.index_name);
    return { removed: true };
  });
}
