import { BusinessRules, type BusinessRule } from '@tritium/shared/business-rules/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// form_business_rules (a form's rules, draft and published) and form_dependencies (what published forms' rollups
// read and rules write, by form); docs/decisions/0015.

export type DependencyKind = 'rollup' | 'rule';

const parse = (json: unknown): BusinessRule[] => {
  const parsed = BusinessRules.safeParse(json ?? []);
  return parsed.success ? parsed.data : [];
};

export async function rulesRowOf(edb: EngineExecutor, schemaCode: string) {
  const row = await edb.selectFrom('form_business_rules').selectAll().where('schema_code', '=', schemaCode).executeTakeFirst();
  return row ? { draft: parse(row.draft), published: parse(row.published), savedTime: row.saved_time, publishedTime: row.published_time } : undefined;
}

export async function publishedRulesOf(edb: EngineExecutor, schemaCode: string): Promise<BusinessRule[]> {
  const row = await edb.selectFrom('form_business_rules').select('published').where('schema_code', '=', schemaCode).executeTakeFirst();
  return parse(row?.published);
}

export async function saveDraftRules(edb: EngineExecutor, schemaCode: string, rules: BusinessRule[], userId: string): Promise<void> {
  const draft = JSON.stringify(rules);
  await edb
    .insertInto('form_business_rules')
    .values({ schema_code: schemaCode, draft, saved_by: userId, saved_time: new Date() })
    .onConflict((oc) => oc.column('schema_code').doUpdateSet({ draft, saved_by: userId, saved_time: new Date() }))
    .execute();
}

export async function publishRules(edb: EngineExecutor, schemaCode: string, rules: BusinessRule[]): Promise<void> {
  const published = JSON.stringify(rules);
  await edb
    .insertInto('form_business_rules')
    .values({ schema_code: schemaCode, draft: published, published, published_time: new Date() })
    .onConflict((oc) => oc.column('schema_code').doUpdateSet({ published, published_time: new Date() }))
    .execute();
}

/** Replaces what a form depends on (at its publish). */
export async function replaceDependencies(edb: EngineExecutor, schemaCode: string, rows: { kind: DependencyKind; item: string; dependsOn: string }[]): Promise<void> {
  await edb.deleteFrom('form_dependencies').where('schema_code', '=', schemaCode).execute();
  if (rows.length) {
    await edb
      .insertInto('form_dependencies')
      .values(rows.map((r) => ({ schema_code: schemaCode, kind: r.kind, item: r.item, depends_on: r.dependsOn })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Every dependency of a kind (the publish's cycle check reads the whole graph of the engine's forms). */
export async function dependenciesOfKind(edb: EngineExecutor, kind: DependencyKind) {
  return edb.selectFrom('form_dependencies').select(['schema_code', 'item', 'depends_on']).where('kind', '=', kind).execute();
}

/** Forms whose rules or rollups name `schemaCode` (checkreference). */
export async function dependantsOf(edb: EngineExecutor, schemaCode: string) {
  return edb.selectFrom('form_dependencies').select(['schema_code', 'kind', 'item']).where('depends_on', '=', schemaCode).execute();
}
