import { sql, type Kysely } from 'kysely';

/**
 * Child flows and hand signatures (docs/decisions/0024): a parent finds the children a ChildInstance token started;
 * a person's latest signature is offered again (GET /v1/workflow/handsign/config).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('wf_instances_parent_token_idx').on('wf_instances').column('parent_token_id').where('parent_token_id', 'is not', null).execute();
  await db.schema.createIndex('wf_comments_user_signature_idx').on('wf_comments').columns(['user_id', 'created_time']).where(sql.ref('signature'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('wf_comments_user_signature_idx').execute();
  await db.schema.dropIndex('wf_instances_parent_token_idx').execute();
}
