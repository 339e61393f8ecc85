import { sql } from 'kysely';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';

/**
 * The published forms switched off on a device (docs/decisions/0115): pcVisible false hides a form from the PC
 * workbench, mobileVisible false from the phone's. The workbench leaves these nodes out of its trees.
 */
export async function hiddenForms(ctx: NodeContext, device: 'pc' | 'mobile'): Promise<string[]> {
  const attribute = device === 'pc' ? 'pcVisible' : 'mobileVisible';
  const rows = await engineOf(ctx)
    .selectFrom('form_schemas')
    .select('schema_code')
    .where(sql<string>`published->'attributes'->>${attribute}`, '=', 'false')
    .orderBy('schema_code')
    .execute();
  return rows.map((r) => r.schema_code);
}
