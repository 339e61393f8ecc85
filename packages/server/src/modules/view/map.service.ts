import type { z } from 'zod';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { contracts } from '@tritium/shared';
import { ViewMode } from '@tritium/shared/constants/views';
import { CALENDAR_VIEW_MAX_RECORDS } from '@tritium/shared/constants/limits';
import { mapMode, settingsOf } from '@tritium/shared/view-modes/index';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { anyDb } from '../business-data/runtime-form.ts';
import { presentRecord } from '../business-data/record.presenter.ts';
import { MAIN, type CompileContext } from '../query/filter-compiler.ts';
import { resolveColumn } from '../query/query-fields.ts';
import { narrowingCondition, type QueryOptions } from '../query/query.service.ts';
import { viewNarrowing, withCallerPaths } from './view-query.service.ts';

// The map (view mode 5; docs/decisions/0047): the view's records that have a place in the location field, or only
// those within 200, 500 or 1,000 m of a point (the person's position or one picked on the map), nearest first. The
// distance is the haversine formula on the stored point, one more condition of the view's narrowing; at most 1,000.

const EARTH_RADIUS_METRES = 6_371_008.8;

function distance(field: string, center: { lat: number; lng: number }): RawBuilder<number> {
  const lat = sql`((${sql.ref(`${MAIN}.${field}`)}->'point'->>'lat')::float8)`;
  const lng = sql`((${sql.ref(`${MAIN}.${field}`)}->'point'->>'lng')::float8)`;
  return sql<number>`(2 * ${EARTH_RADIUS_METRES}::float8 * asin(least(1, sqrt(
    power(sin(radians(${lat} - ${center.lat}::float8) / 2), 2)
    + cos(radians(${center.lat}::float8)) * cos(radians(${lat})) * power(sin(radians(${lng} - ${center.lng}::float8) / 2), 2)))))`;
}

export async function mapRecords(ctx: NodeContext, body: z.infer<typeof contracts.MapRecordsBody>, options: QueryOptions = {}): Promise<z.infer<typeof contracts.MapRecordsResult>> {
  if ((body.center === undefined) !== (body.radius === undefined)) throw parameterError([{ path: body.center ? 'radius' : 'center', message: '必填' }]);
  return withCallerPaths(async () => {
    const { form, view, narrowing } = await viewNarrowing(ctx, body);
    if (view.mode !== ViewMode.Map) throw new AppError('ViewModeMismatch', { detail: { viewCode: view.code, mode: ViewMode.Map } });
    const settings = settingsOf(mapMode, view.settings);
    const edb = engineOf(ctx);
    const cc: CompileContext = { edb, form, userId: ctx.userId, now: options.now ?? new Date(), issues: [] };
    const where = narrowingCondition(cc, narrowing);
    if (cc.issues.length) throw parameterError(cc.issues);
    // A location field hidden from the caller places nothing (0037).
    if (!resolveColumn(form, settings.locationField)) return { list: [], total: 0, hasMore: false };
    const place = sql.ref(`${MAIN}.${settings.locationField}`);
    const near = body.center && body.radius ? distance(settings.locationField, body.center) : null;
    const condition = sql<SqlBool>`${place} ? 'point' and ${near ? sql`${near} <= ${body.radius}` : sql`true`}`;
    const base = () => anyDb(edb).selectFrom(`${form.mainTable} as ${MAIN}`).where(where).where(condition);
    const counted = await base().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    let page = base().selectAll(MAIN);
    page = near ? page.orderBy(near) : page.orderBy(sql.ref(`${MAIN}.CreatedTime`), 'desc');
    const rows = await page.orderBy(sql.ref(`${MAIN}.ObjectId`), 'desc').limit(CALENDAR_VIEW_MAX_RECORDS).execute();
    const total = Number(counted.n);
    return { list: rows.map((r) => presentRecord(form, r)), total, hasMore: total > rows.length };
  });
}
