import { sql, type Kysely } from 'kysely';

/**
 * The workflow engine (issue 9, docs/decisions/0014): template drafts and published versions per workflow form,
 * instances, tokens (one per activation of an activity), work items, and the comment/action log. Runs inside one
 * engine schema. States are text with CHECKs (conventions.md §7); nothing here is ever deleted but templates' drafts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wf_template_drafts')
    .addColumn('schema_code', 'text', (c) => c.primaryKey())
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('saved_by', 'text', (c) => c.notNull())
    .addColumn('saved_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('wf_templates')
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('published_by', 'text', (c) => c.notNull())
    .addColumn('published_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('wf_templates_pk', ['schema_code', 'version'])
    .execute();

  await db.schema
    .createTable('wf_instances')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('template_version', 'integer', (c) => c.notNull())
    .addColumn('originator', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('Initiated', 'Starting', 'Running', 'Finishing', 'Finished', 'Canceled')`),
    )
    .addColumn('approval', 'integer', (c) => c.notNull().defaultTo(-1).check(sql`approval in (-1, 0, 1)`))
    .addColumn('parent_instance_id', 'uuid', (c) => c.references('wf_instances.id'))
    .addColumn('parent_token_id', 'uuid')
    .addColumn('next_seq', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_time', 'timestamptz')
    .addForeignKeyConstraint('wf_instances_template_fk', ['schema_code', 'template_version'], 'wf_templates', ['schema_code', 'version'])
    .execute();
  // One instance per record: reactivation reuses it.
  await db.schema.createIndex('wf_instances_record_idx').on('wf_instances').columns(['schema_code', 'object_id']).unique().execute();
  await db.schema.createIndex('wf_instances_originator_idx').on('wf_instances').columns(['originator', 'state', 'created_time']).execute();

  await db.schema
    .createTable('wf_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('wf_instances.id'))
    // Activation order within the instance (H_Token.TokenId): the highest running one is the current node.
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('activity_code', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('Running', 'Finished', 'Dropped', 'Revoke', 'Back', 'Approved')`))
    .addColumn('approval', 'integer', (c) => c.notNull().defaultTo(-1).check(sql`approval in (-1, 0, 1)`))
    // The participants in their order (serial nodes act one after another).
    .addColumn('participants', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('item_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('agree_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disagree_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retrievable', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('pre_tokens', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('action_event', 'text')
    .addColumn('skipped', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_time', 'timestamptz')
    .addUniqueConstraint('wf_tokens_seq_uq', ['instance_id', 'seq'])
    .execute();

  await db.schema
    .createTable('wf_work_items')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('wf_instances.id'))
    .addColumn('token_id', 'uuid', (c) => c.notNull().references('wf_tokens.id'))
    .addColumn('activity_code', 'text', (c) => c.notNull())
    .addColumn('item_type', 'text', (c) => c.notNull().check(sql`item_type in ('fill', 'approve', 'circulate', 'childInstance')`))
    // normal: a participant of the node; before/after: an added signer; consult: a for-comment request.
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('normal').check(sql`kind in ('normal', 'before', 'after', 'consult')`))
    .addColumn('participant', 'text', (c) => c.notNull())
    .addColumn('finisher', 'text')
    .addColumn('delegant', 'text')
    // The item an added signer (before) or a consulted user answers to.
    .addColumn('source_item_id', 'uuid')
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('Waiting', 'Working', 'Finished', 'Canceled', 'Forwarded', 'Revoked', 'FinishedAndForwarded', 'Revise', 'ForBack', 'ChangedCanceled', 'NotEffective')`),
    )
    .addColumn('approval', 'integer', (c) => c.notNull().defaultTo(-1).check(sql`approval in (-1, 0, 1)`))
    .addColumn('action_event', 'text')
    .addColumn('urged', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_time', 'timestamptz')
    .execute();
  // workflow.md: at most one open item per user per token.
  await db.schema
    .createIndex('wf_work_items_open_uq')
    .on('wf_work_items')
    .columns(['token_id', 'participant'])
    .unique()
    .where(sql<boolean>`state in ('Waiting', 'Working')`)
    .execute();
  // The flow center's counts: my open items by type.
  await db.schema.createIndex('wf_work_items_participant_idx').on('wf_work_items').columns(['participant', 'state', 'item_type']).execute();
  await db.schema.createIndex('wf_work_items_instance_idx').on('wf_work_items').columns(['instance_id', 'created_time']).execute();
  await db.schema.createIndex('wf_tokens_instance_idx').on('wf_tokens').columns(['instance_id', 'state']).execute();

  await db.schema
    .createTable('wf_comments')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('wf_instances.id'))
    .addColumn('token_id', 'uuid')
    .addColumn('work_item_id', 'uuid')
    .addColumn('activity_code', 'text')
    .addColumn('user_id', 'text', (c) => c.notNull())
    // The action that wrote the entry: start, submit, reject, forback, forward, addsign, consult, retrieve, cancel,
    // finish, urge, reactivate, circulate, read.
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo('').check(sql`char_length(text) <= 2000`))
    .addColumn('approval', 'integer', (c) => c.notNull().defaultTo(-1).check(sql`approval in (-1, 0, 1)`))
    .addColumn('signature', 'text')
    .addColumn('attachment_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // Users the action names: the forward receiver, added signers, consulted users, urged participants, …
    .addColumn('receivers', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('wf_comments_instance_idx').on('wf_comments').columns(['instance_id', 'created_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wf_comments').execute();
  await db.schema.dropTable('wf_work_items').execute();
  await db.schema.dropTable('wf_tokens').execute();
  await db.schema.dropTable('wf_instances').execute();
  await db.schema.dropTable('wf_templates').execute();
  await db.schema.dropTable('wf_template_drafts').execute();
}
