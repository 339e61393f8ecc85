import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, getAppViewOrThrow, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { execute } from '../business-data/record.service.ts';
import { packageStore } from './package-config.ts';

// The sample records an install wrote (docs/decisions/0130), by their marks in app_sample_records: counted per form,
// and cleared one by one through the form's own removal (its rollups, files, flows and scripts as for a person's).
// Records a person has removed meanwhile just lose their mark; the app's other records are never touched.

export async function sampleDataOf(db: Db, engineCode: string, appCode: string): Promise<{ total: number; forms: { schemaCode: string; count: number }[] }> {
  const rows = await engineDb(db, engineCode)
    .selectFrom('app_sample_records')
    .select(['schema_code', (eb) => eb.fn.countAll<string>().as('n')])
    .where('app_code', '=', appCode)
    .groupBy('schema_code')
    .orderBy('schema_code')
    .execute();
  const forms = rows.map((r) => ({ schemaCode: r.schema_code, count: Number(r.n) }));
  return { total: forms.reduce((n, f) => n + f.count, 0), forms };
}

/** Removes the app's sample records (its administrators only); answers how many records went. */
export async function clearSampleData(ctx: NodeContext, appCode: string): Promise<{ removed: number }> {
  const store = packageStore(ctx.db);
  const edb = engineOf(ctx);
  const view = await getAppViewOrThrow(edb, await viewerOf(edb, ctx), appCode);
  if (!view.isAdmin) throw new AppError('AppPackageForbidden');
  const marks = await edb.selectFrom('app_sample_records').select(['schema_code', 'object_id']).where('app_code', '=', appCode).execute();
  let removed = 0;
  for (const m of marks) {
    try {
      await execute(ctx, { schemaCode: m.schema_code, actionCode: 'Remove', objectId: m.object_id }, { store });
      removed++;
    } catch (error) {
      // Gone already (a person removed it): only the mark is left to take away.
      if (!(error instanceof AppError && error.errorName === 'BizObjectNotFound')) throw error;
    }
    await edb.deleteFrom('app_sample_records').where('schema_code', '=', m.schema_code).where('object_id', '=', m.object_id).execute();
  }
  return { removed };
}
