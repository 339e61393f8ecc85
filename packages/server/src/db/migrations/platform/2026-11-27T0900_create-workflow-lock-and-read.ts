import { sql, type Kysely } from 'kysely';

/**
 * A work-item action's lock and read in one round trip (docs/decisions/0101). `platform.wf_lock_and_read(schema,
 * item, instance)` locks the root instance of a work item (or the instance itself) FOR UPDATE, then reads its tokens,
 * items and template definition in a statement of its own. A function's statements each take a fresh snapshot (READ
 * COMMITTED, a VOLATILE function), so the read sees what the lock's previous holder committed — which a subquery of
 * the locking statement would not (docs/decisions/0035, choice 2). A child flow's instance (it has a parent) answers
 * null without a lock: its ancestors are locked first, the long way (docs/decisions/0024).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function platform.wf_lock_and_read(schema_name text, item_id uuid, instance_id uuid) returns json
    language plpgsql volatile as $$
    declare
      locked json;
      locked_id uuid;
      answer json;
    begin
      execute format(
        'select to_json(i), i.id from %1$I.wf_instances i where i.parent_instance_id is null
           and i.id = coalesce($2, (select w.instance_id from %1$I.wf_work_items w where w.id = $1)) for update',
        schema_name) into locked, locked_id using item_id, instance_id;
      if locked_id is null then
        return null;
      end if;
      execute format(
        'select json_build_object(
           ''instance'', $2,
           ''tokens'', (select coalesce(json_agg(t order by t.seq), ''[]''::json) from %1$I.wf_tokens t where t.instance_id = $1),
           ''items'', (select coalesce(json_agg(w order by w.created_time, w.id), ''[]''::json) from %1$I.wf_work_items w where w.instance_id = $1),
           ''definition'', (select d.definition::text from %1$I.wf_templates d
             where d.schema_code = $2->>''schema_code'' and d.version = ($2->>''template_version'')::int))',
        schema_name) into answer using locked_id, locked;
      return answer;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists platform.wf_lock_and_read(text, uuid, uuid)`.execute(db);
}
