import type { Selectable } from 'kysely';
import type { PrintTemplateTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// print_templates rows (docs/decisions/0050).

export type PrintTemplateRow = Selectable<PrintTemplateTable>;

export function templatesOfForm(edb: EngineExecutor, schemaCode: string): Promise<PrintTemplateRow[]> {
  return edb.selectFrom('print_templates').selectAll().where('schema_code', '=', schemaCode).orderBy('is_default', 'desc').orderBy('created_time').execute();
}

export function findTemplate(edb: EngineExecutor, id: string): Promise<PrintTemplateRow | undefined> {
  return edb.selectFrom('print_templates').selectAll().where('id', '=', id).executeTakeFirst();
}

export function defaultTemplate(edb: EngineExecutor, schemaCode: string): Promise<PrintTemplateRow | undefined> {
  return edb.selectFrom('print_templates').selectAll().where('schema_code', '=', schemaCode).where('is_default', '=', true).executeTakeFirst();
}

export async function countTemplates(edb: EngineExecutor, schemaCode: string): Promise<number> {
  const r = await edb.selectFrom('print_templates').select((eb) => eb.fn.countAll<string>().as('n')).where('schema_code', '=', schemaCode).executeTakeFirstOrThrow();
  return Number(r.n);
}
