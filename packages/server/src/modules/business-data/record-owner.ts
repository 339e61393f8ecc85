import { sql } from 'kysely';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { assertCan } from '../permission/form-rights.ts';
import { mayChange, readableIds } from './record-policy.ts';
import { anyDb, getRuntimeFormOrThrow } from './runtime-form.ts';
import { insertDataLogs, mainDepartmentOf, type RecordRow } from './records.repo.ts';

// 修改拥有者 (issue 19: the change-owner right of a permission group): records get a new owner and that owner's main
// department, which moves them between people's "own" and "own department" scopes. The caller needs the right and
// each record within their edit scopes (docs/decisions/0037); every record changes or none. The data log says who.

export async function changeOwner(ctx: NodeContext, body: { schemaCode: string; objectIds: string[]; ownerId: string }): Promise<{ changed: number }> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  if (form.rights.source === 'groups') assertCan(form.rights, 'changeOwner');
  const ids = [...new Set(body.objectIds)];
  return ctx.db.transaction().execute(async (trx) => {
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    const owner = await edb.selectFrom('org_users').select(['id', 'state']).where('id', '=', body.ownerId).executeTakeFirst();
    if (!owner || owner.state !== 'active') throw parameterError([{ path: 'ownerId', message: '该成员不存在或已停用' }]);
    const rows = (await anyDb(edb).selectFrom(form.mainTable).selectAll().where('ObjectId', 'in', ids).orderBy('ObjectId').forUpdate().execute()) as RecordRow[];
    // A record outside the caller's view is not found, as everywhere (its existence is not told).
    const found = await readableIds(edb, form, rows.map((r) => String(r.ObjectId)), ctx.userId);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw new AppError('BizObjectNotFound', { detail: { objectId: missing } });
    for (const row of rows) if (!(await mayChange(edb, form, row, ctx.userId, 'edit'))) throw new AppError('BizObjectForbidden', { detail: { objectId: row.ObjectId } });
    const moving = rows.filter((r) => r.OwnerId !== owner.id);
    if (!moving.length) return { changed: 0 };
    const deptId = await mainDepartmentOf(edb, owner.id);
    await anyDb(edb)
      .updateTable(form.mainTable)
      .set({ OwnerId: owner.id, OwnerDeptId: deptId, ModifiedBy: ctx.userId, ModifiedTime: sql`now()` })
      .where('ObjectId', 'in', moving.map((r) => String(r.ObjectId)))
      .execute();
    await insertDataLogs(
      edb,
      moving.map((r) => ({ id: newId(), schema_code: form.node.code, object_id: String(r.ObjectId), user_id: ctx.userId, changes: [{ code: 'OwnerId', from: r.OwnerId ?? null, to: owner.id }] })),
    );
    return { changed: moving.length };
  });
}
