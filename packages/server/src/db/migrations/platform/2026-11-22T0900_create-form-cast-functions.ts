import { sql, type Kysely } from 'kysely';

/**
 * Conversions publishing uses when a form field changes type (docs/decisions/0006): each answers the converted value,
 * or null when the text does not convert, so that the values that would be lost can be counted before anything
 * changes and a confirmed change cannot fail half-way. Shared by every engine schema, hence in platform.
 */
const TARGETS = ['numeric', 'integer', 'timestamptz', 'boolean'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const target of TARGETS) {
    await sql`
      create function ${sql.id('platform', `form_try_${target}`)}(value text) returns ${sql.raw(target)}
      language plpgsql stable as $$
      begin
        if value is null or btrim(value) = '' then return null; end if;
        return value::${sql.raw(target)};
      exception when others then
        return null;
      end $$`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const target of TARGETS) await sql`drop function ${sql.id('platform', `form_try_${target}`)}(text)`.execute(db);
}
