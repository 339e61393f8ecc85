import { sql, type Expression, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool } from 'kysely';
import type { TemplateExecutor, TemplateTable, TemplateTables } from './template.tables.ts';

// Reads and writes of platform.templates and platform.template_shares (docs/decisions/0131). Every read of templates
// for an engine goes through `visibleTo`: built-in and platform templates, the engine's own, and those shared with it.

export type TemplateRow = Selectable<TemplateTable>;
/** A row as the market lists it: with the publisher's name and whether it was shared with the reader. */
export type TemplateListRow = TemplateRow & { publisher_name: string | null; shared_to_me: boolean };
export type TemplateSource = 'all' | 'builtIn' | 'platform' | 'engine' | 'shared';

type Eb = ExpressionBuilder<TemplateTables & { t: TemplateTable }, 't'>;

const sharedWith = (eb: Eb, engineCode: string) =>
  eb.exists(eb.selectFrom('platform.template_shares as s').select('s.template_id').whereRef('s.template_id', '=', 't.id').where('s.engine_code', '=', engineCode));

function visibleTo(eb: Eb, engineCode: string, source: TemplateSource): Expression<SqlBool> {
  switch (source) {
    case 'builtIn':
      return eb('t.built_in', '=', true);
    case 'platform':
      return eb.and([eb('t.scope', '=', 'Platform'), eb('t.built_in', '=', false)]);
    case 'engine':
      return eb.and([eb('t.scope', '=', 'Engine'), eb('t.publisher_engine', '=', engineCode)]);
    case 'shared':
      return eb.and([eb('t.scope', '=', 'Engine'), eb('t.publisher_engine', '!=', engineCode), sharedWith(eb, engineCode)]);
    default:
      return eb.or([eb('t.scope', '=', 'Platform'), eb('t.publisher_engine', '=', engineCode), sharedWith(eb, engineCode)]);
  }
}

export interface ListFilter {
  engineCode: string;
  source: TemplateSource;
  category?: string;
  keyword?: string;
  offset: number;
  limit: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function filtered(db: TemplateExecutor, f: Omit<ListFilter, 'offset' | 'limit' | 'category'>) {
  return db
    .selectFrom('platform.templates as t')
    .where((eb) => visibleTo(eb as unknown as Eb, f.engineCode, f.source))
    .$if(!!f.keyword, (q) => {
      const pattern = `%${escapeLike(f.keyword!)}%`;
      return q.where((eb) => eb.or([eb('t.name', 'ilike', pattern), eb('t.summary', 'ilike', pattern)]));
    });
}

/** One page of the templates an engine sees, built-in first, then the most installed and newest. */
export async function listVisible(db: TemplateExecutor, f: ListFilter): Promise<{ rows: TemplateListRow[]; total: number; categories: { category: string; count: number }[] }> {
  const base = filtered(db, f);
  const inCategory = f.category ? base.where('t.category', '=', f.category) : base;
  const [rows, total, categories] = await Promise.all([
    inCategory
      .leftJoin('platform.engines as e', 'e.engine_code', 't.publisher_engine')
      .selectAll('t')
      .select('e.engine_name as publisher_name')
      .select((eb) => sharedWith(eb as unknown as Eb, f.engineCode).as('shared_to_me'))
      .orderBy('t.built_in', 'desc')
      .orderBy('t.install_count', 'desc')
      .orderBy('t.published_time', 'desc')
      .orderBy('t.id')
      .offset(f.offset)
      .limit(f.limit)
      .execute(),
    inCategory.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    base.select(['t.category', (eb) => eb.fn.countAll<string>().as('n')]).groupBy('t.category').orderBy('t.category').execute(),
  ]);
  return {
    rows: rows as TemplateListRow[],
    total: Number(total.n),
    categories: categories.map((c) => ({ category: c.category, count: Number(c.n) })),
  };
}

/** A template the engine sees; undefined for another engine's unshared one (it does not exist for this engine). */
export async function findVisible(db: TemplateExecutor, engineCode: string, id: string): Promise<TemplateListRow | undefined> {
  const row = await db
    .selectFrom('platform.templates as t')
    .leftJoin('platform.engines as e', 'e.engine_code', 't.publisher_engine')
    .selectAll('t')
    .select('e.engine_name as publisher_name')
    .select((eb) => sharedWith(eb as unknown as Eb, engineCode).as('shared_to_me'))
    .where('t.id', '=', id)
    .where((eb) => visibleTo(eb as unknown as Eb, engineCode, 'all'))
    .executeTakeFirst();
  return row as TemplateListRow | undefined;
}

/** The template an engine published from an app in a scope (publishing again updates it). */
export async function findOwnOfApp(db: TemplateExecutor, engineCode: string, appCode: string, scope: 'Engine' | 'Platform'): Promise<TemplateRow | undefined> {
  return db.selectFrom('platform.templates').selectAll().where('publisher_engine', '=', engineCode).where('source_app_code', '=', appCode).where('scope', '=', scope).forUpdate().executeTakeFirst();
}

/** Another template holding the name in the scope (per publisher engine for Engine templates). */
export async function nameHolder(db: TemplateExecutor, scope: 'Engine' | 'Platform', engineCode: string, name: string): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('platform.templates')
    .selectAll()
    .where('scope', '=', scope)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .$if(scope === 'Engine', (q) => q.where('publisher_engine', '=', engineCode))
    .executeTakeFirst();
}

export async function insertTemplate(db: TemplateExecutor, row: Insertable<TemplateTable>): Promise<void> {
  await db.insertInto('platform.templates').values(row).execute();
}

export async function updateTemplate(db: TemplateExecutor, id: string, set: Partial<Insertable<TemplateTable>>): Promise<void> {
  await db.updateTable('platform.templates').set(set).where('id', '=', id).execute();
}

export async function deleteTemplate(db: TemplateExecutor, id: string): Promise<void> {
  await db.deleteFrom('platform.templates').where('id', '=', id).execute();
}

export async function countInstall(db: TemplateExecutor, id: string): Promise<void> {
  await db.updateTable('platform.templates').set((eb) => ({ install_count: eb('install_count', '+', 1) })).where('id', '=', id).execute();
}

export async function sharesOf(db: TemplateExecutor, templateId: string): Promise<{ engineCode: string; engineName: string }[]> {
  const rows = await db
    .selectFrom('platform.template_shares as s')
    .innerJoin('platform.engines as e', 'e.engine_code', 's.engine_code')
    .select(['s.engine_code', 'e.engine_name'])
    .where('s.template_id', '=', templateId)
    .orderBy('s.shared_time')
    .orderBy('s.engine_code')
    .execute();
  return rows.map((r) => ({ engineCode: r.engine_code, engineName: r.engine_name }));
}

export async function addShares(db: TemplateExecutor, templateId: string, engineCodes: string[], sharedBy: string): Promise<void> {
  if (!engineCodes.length) return;
  await db
    .insertInto('platform.template_shares')
    .values(engineCodes.map((engine_code) => ({ template_id: templateId, engine_code, shared_by: sharedBy })))
    .onConflict((oc) => oc.columns(['template_id', 'engine_code']).doNothing())
    .execute();
}

/** The engines among `codes` that exist and are not archived or disabled, with their names. */
export async function existingEngines(db: TemplateExecutor, codes: string[]): Promise<Map<string, string>> {
  if (!codes.length) return new Map();
  const rows = await db.selectFrom('platform.engines').select(['engine_code', 'engine_name']).where('engine_code', 'in', codes).where('state', '=', 'normal').execute();
  return new Map(rows.map((r) => [r.engine_code, r.engine_name]));
}

/** The engines associated with this one now (either side of an active association, docs/decisions/0091). */
export async function associatedEngines(db: TemplateExecutor, engineCode: string): Promise<string[]> {
  const rows = await db
    .selectFrom('platform.associated_orgs')
    .select(['host_engine_code', 'partner_engine_code'])
    .where('state', '=', 'active')
    .where((eb) => eb.or([eb('host_engine_code', '=', engineCode), eb('partner_engine_code', '=', engineCode)]))
    .execute();
  const codes = rows.map((r) => (r.host_engine_code === engineCode ? r.partner_engine_code : r.host_engine_code)).filter((c): c is string => !!c && c !== engineCode);
  return [...new Set(codes)];
}

/**
 * Hands a package an engine built over to the platform (owner null), so every engine the template reaches may install
 * it; the template decides who sees it (docs/decisions/0131). The package layer's own calls keep refusing other
 * engines' packages.
 */
export async function handOverPackage(db: TemplateExecutor, packageId: string, engineCode: string): Promise<void> {
  await sql`update platform.app_packages set engine_code = null where id = ${packageId} and engine_code = ${engineCode}`.execute(db);
}
