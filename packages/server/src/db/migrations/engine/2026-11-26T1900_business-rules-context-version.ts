import { sql, type Kysely } from 'kysely';

/**
 * Published business rules are read by every save of their form; the request context now caches them under the
 * engine's 'forms' version (docs/decisions/0032), so publishing rules bumps it. Saving a draft does not.
 */
const qualified = (db: Kysely<any>) => sql.raw(db.selectFrom('form_business_rules').selectAll().compile().sql.replace(/^select \* from /, ''));

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create trigger form_business_rules_context_version after insert or update of published or delete or truncate on ${qualified(db)}
    for each statement execute function platform.bump_context_version('forms')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger form_business_rules_context_version on ${qualified(db)}`.execute(db);
}
