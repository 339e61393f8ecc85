import { sql, type Kysely } from 'kysely';
import { up as dynamic } from './2026-11-27T0900_create-workflow-lock-and-read.ts';

/**
 * `platform.wf_lock_and_read` (docs/decisions/0101) with static statements instead of `execute format(...)`, which
 * PostgreSQL planned on every call (0.14 and 0.26 ms of every approval, docs/decisions/0104): the engine's schema is
 * put first on the transaction's search_path for the function's two statements, whose plans PL/pgSQL keeps per
 * connection (planned again when the search_path differs, i.e. for another engine), and the caller's search_path is
 * restored before it returns. The rest is as before: the lock, then a read with a fresh snapshot (a VOLATILE
 * function's statements each take one), null without a lock for a child flow's instance.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function platform.wf_lock_and_read(schema_name text, item_id uuid, instance_id uuid) returns json
    language plpgsql volatile as $$
    declare
      previous text := current_setting('search_path');
      locked json;
      locked_id uuid;
      answer json;
    begin
      perform set_config('search_path', format('%I', schema_name), true);
      select to_json(i), i.id into locked, locked_id from wf_instances i
        where i.parent_instance_id is null
          and i.id = coalesce(wf_lock_and_read.instance_id, (select w.instance_id from wf_work_items w where w.id = wf_lock_and_read.item_id))
        for update;
      if locked_id is null then
        perform set_config('search_path', previous, true);
        return null;
      end if;
      select json_build_object(
        'instance', locked,
        'tokens', (select coalesce(json_agg(t order by t.seq), '[]'::json) from wf_tokens t where t.instance_id = locked_id),
        'items', (select coalesce(json_agg(w order by w.created_time, w.id), '[]'::json) from wf_work_items w where w.instance_id = locked_id),
        'definition', (select d.definition::text from wf_templates d
          where d.schema_code = locked->>'schema_code' and d.version = (locked->>'template_version')::int))
        into answer;
      perform set_config('search_path', previous, true);
      return answer;
    end $$`.execute(db);
}

/** Back to the dynamic statements of 2026-11-27T0900. */
export async function down(db: Kysely<any>): Promise<void> {
  await dynamic(db);
}
