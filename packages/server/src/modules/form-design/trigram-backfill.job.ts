import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import type { JobHandler } from '../../jobs/job-registry.ts';
import { definitionOf } from './form-design.service.ts';
import { formModelOf } from './form-model.ts';
import { syncTrigramIndexes } from './trigram-indexes.ts';

// Forms published before full-text search (docs/decisions/0040) lack the trigram indexes of their text areas and
// choice columns, and forms published before decision 0103 the lowered twins of their text columns (their "contains"
// filters stay ILIKE meanwhile), until their next publish. At start the app queues this job once per engine
// (queueTrigramBackfill); it brings every published form's twins and indexes to what a publish writes, one form a
// transaction (laying twins rewrites the table under its lock), with progress. The kind was renamed with 0103 so that
// engines which ran the first backfill run this one too.

export const TRIGRAM_BACKFILL_JOB = 'form.text-twins-backfill';

/** Queues the job for each engine that never had it (one statement; engines made later get their indexes at publish). */
export async function queueTrigramBackfill(db: Db): Promise<number> {
  const r = await sql`
    insert into platform.jobs (id, engine_code, kind, payload)
    select gen_random_uuid()::text, e.engine_code, ${TRIGRAM_BACKFILL_JOB}, '{}'::jsonb from platform.engines e
    where not exists (select 1 from platform.jobs j where j.engine_code = e.engine_code and j.kind = ${TRIGRAM_BACKFILL_JOB})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

export function trigramBackfillHandler(): JobHandler {
  return {
    // Idempotent, nobody to decide: a job whose process died is taken up by another (docs/decisions/0129).
    requeueWhenLost: true,
    async run(ctx) {
      const schema = engineSchemaName(ctx.engineCode);
      const forms = await engineDb(ctx.db, ctx.engineCode).selectFrom('form_schemas').select(['schema_code']).where('published', 'is not', null).orderBy('schema_code').execute();
      let done = 0;
      for (const { schema_code } of forms) {
        await ctx.db.transaction().execute(async (trx) => {
          const edb = engineDb(trx as unknown as Db, ctx.engineCode);
          // Locked as a publish locks it (form-design.service.ts): the twins laid are those of the definition published.
          const row = await edb.selectFrom('form_schemas').select('published').where('schema_code', '=', schema_code).forUpdate().executeTakeFirst();
          if (row?.published) await syncTrigramIndexes(edb, schema, schema_code, formModelOf(definitionOf(row.published)).columns);
        });
        done += 1;
        await ctx.reportProgress((done / forms.length) * 100);
      }
      return { forms: done };
    },
  };
}
