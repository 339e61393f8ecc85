import { sql, type Kysely } from 'kysely';

/**
 * `platform.wf_try_lock_and_read(schema, item, instance)`: `wf_lock_and_read` without waiting (docs/decisions/0109).
 * When another transaction holds the root instance's row it answers `{"busy": <instance id>}` at once instead of
 * queueing on the lock, so that a server process can line up the votes waiting for one instance and apply them
 * together in one transaction. Otherwise it answers what `wf_lock_and_read` answers: null for no root instance (a child
 * flow's, or none), else the instance locked and read with a fresh snapshot.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function platform.wf_try_lock_and_read(schema_name text, item_id uuid, instance_id uuid) returns json
    language plpgsql volatile as $$
    declare
      previous text := current_setting('search_path');
      target uuid;
      locked_id uuid;
      held boolean;
    begin
      perform set_config('search_path', format('%I', schema_name), true);
      target := coalesce(wf_try_lock_and_read.instance_id, (select w.instance_id from wf_work_items w where w.id = wf_try_lock_and_read.item_id));
      select i.id into locked_id from wf_instances i where i.parent_instance_id is null and i.id = target for update skip locked;
      if locked_id is null then
        held := exists (select 1 from wf_instances i where i.parent_instance_id is null and i.id = target);
        perform set_config('search_path', previous, true);
        return case when held then json_build_object('busy', target) end;
      end if;
      perform set_config('search_path', previous, true);
      -- Locked already by this transaction: the read takes a fresh snapshot after the lock, as the waiting form does.
      return platform.wf_lock_and_read(schema_name, null, locked_id);
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists platform.wf_try_lock_and_read(text, uuid, uuid)`.execute(db);
}
