import { sql, type Kysely } from 'kysely';
import type { FileStore } from '../files/file-store.ts';

/** What a failed restore takes back, in reverse: uploaded files, committed platform rows, the schema. */
export class RestoreUndo {
  readonly files: string[] = [];
  readonly accounts: string[] = [];
  readonly schemas: string[] = [];
  readonly engineCodes: string[] = [];

  async run(db: Kysely<any>, store: FileStore): Promise<void> {
    for (const key of this.files) await store.delete(key).catch(() => undefined);
    if (this.engineCodes.length) {
      await sql`delete from platform.engines where engine_code = any(${this.engineCodes})`.execute(db).catch(() => undefined);
      await sql`delete from platform.context_versions where engine_code = any(${this.engineCodes})`.execute(db).catch(() => undefined);
    }
    if (this.accounts.length) {
      await sql`delete from platform.accounts a where a.id = any(${this.accounts}) and not exists (select from platform.memberships m where m.account_id = a.id)`.execute(db).catch(() => undefined);
    }
    for (const schema of this.schemas) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db).catch(() => undefined);
  }
}
