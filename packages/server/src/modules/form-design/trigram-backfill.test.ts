import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { engineSchemaName } from '../../db/database.ts';
import { queueTrigramBackfill } from './trigram-backfill.job.ts';

// Forms published before full-text search (docs/decisions/0040) get its trigram indexes once, from a job the app
// queues at start for each engine.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const indexesOf = async (schema: string, table: string) =>
  (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = ${schema} and tablename = ${table} and indexname like 'xt\\_%' order by 1`.execute(t.database.db)).rows.map((r) => r.name);

describe('the search index backfill', () => {
  it('puts back the trigram indexes of a form that lacks them, once per engine', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([{ type: 'textBox', code: 'Title' }, { type: 'textArea', code: 'Notes', options: { searchable: true } }, { type: 'dropDown', code: 'Level', options: { defaultItems: ['高', '低'] } }]));
    const schema = engineSchemaName(admin.engineCode);
    const table = (await sql<{ table_name: string }>`select table_name from ${sql.table(`${schema}.form_tables`)} where schema_code = ${code} and grid_key = ''`.execute(t.database.db)).rows[0]!.table_name;
    const written = await indexesOf(schema, table);
    expect(written).toHaveLength(5);
    // As a form published before the search indexes existed: two of its indexes missing.
    for (const name of written.slice(3)) await sql`drop index ${sql.id(schema, name)}`.execute(t.database.db);
    expect(await indexesOf(schema, table)).toHaveLength(3);

    expect(await queueTrigramBackfill(t.database.db)).toBeGreaterThanOrEqual(1);
    while (await t.app.extras.jobs.runOnce());
    expect(await indexesOf(schema, table)).toEqual(written);
    expect(await queueTrigramBackfill(t.database.db)).toBe(0);
  });
});
