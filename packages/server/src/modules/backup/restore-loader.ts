import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { FileStore } from '../files/file-store.ts';
import { ensureTrigram } from '../form-design/trigram-indexes.ts';
import { readAll } from './backup-file.ts';
import { NOT_WITH_ENGINE } from './engine-backup.ts';
import { damaged, tableKey, type BackupManifest, type TableDefinition } from './format.ts';
import type { RestoreUndo } from './restore-undo.ts';
import { insertLines, quoteIdent, readLines, RowChecksum, safeType } from './table-rows.ts';
import type { TarEntry } from './tar.ts';

// The entries of an engine's file, loaded in the order they come (engine-restore.ts opens the transaction). The
// engine's code is rewritten where data holds it: the platform rows' engine_code, the files' storage keys
// (`<engine>/<yyyymm>/<id>`); an account whose mobile number the target platform already knows is that account.

export interface RestoreProgress {
  engineCode: string;
  phase: 'tables' | 'files' | 'checking' | 'done';
  table?: string;
  rows: number;
  files: number;
  bytes: number;
}

interface Loaded {
  def: TableDefinition;
  /** Over the lines as the file has them: compared with the manifest (the file is what was written). */
  fileSum: RowChecksum;
  /** Over the lines as written here (after the engine code's rewrite): compared with the table read back. */
  dbSum: RowChecksum;
}

const ENTRY = /^(platform|engine)\/([a-z0-9_]{1,63})\/(table\.json|\d{6}\.ndjson)$/;

export class RestoreLoader {
  private readonly tables = new Map<string, Loaded>();
  private readonly accountIds = new Map<string, string>();
  private readonly fileKeys = new Map<string, string>();
  private readonly seenFiles = new Map<string, { sha256: string; size: number }>();
  private readonly droppedForeignKeys: { table: string; name: string; definition: string }[] = [];
  private readonly progress: RestoreProgress;
  private state = 'normal';
  private skipped = 0;
  private manifest?: BackupManifest;

  constructor(
    private readonly trx: Kysely<any>,
    private readonly store: FileStore,
    private readonly o: { from: string; to: string; schema: string; undo: RestoreUndo; onProgress?: (p: RestoreProgress) => void },
  ) {
    this.progress = { engineCode: o.to, phase: 'tables', rows: 0, files: 0, bytes: 0 };
  }

  /** Foreign keys go until the data is in (rows come in no particular order); rows the migrations wrote go for good. */
  async prepare(): Promise<void> {
    const fks = await sql<{ table: string; name: string; definition: string }>`
      select c.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
      from pg_constraint k join pg_class c on c.oid = k.conrelid where k.contype = 'f' and k.connamespace = ${this.o.schema}::regnamespace`.execute(this.trx);
    for (const fk of fks.rows) {
      await sql`alter table ${sql.id(this.o.schema, fk.table)} drop constraint ${sql.id(fk.name)}`.execute(this.trx);
      this.droppedForeignKeys.push(fk);
    }
    const tables = await sql<{ t: string }>`select relname as t from pg_class where relnamespace = ${this.o.schema}::regnamespace and relkind = 'r' and relname not like 'kysely_migration%'`.execute(this.trx);
    if (tables.rows.length) await sql`truncate table ${sql.join(tables.rows.map((r) => sql.id(this.o.schema, r.t)))}`.execute(this.trx);
  }

  /** Loads one entry; true once the manifest was read (the file's end). */
  async take(entry: TarEntry): Promise<boolean> {
    if (entry.name === 'manifest.json') {
      this.manifest = JSON.parse((await readAll(entry.body)).toString('utf8')) as BackupManifest;
      return true;
    }
    if (entry.name.startsWith('files/')) {
      await this.file(entry);
      return false;
    }
    const m = ENTRY.exec(entry.name);
    if (!m) throw damaged(`多出了条目 ${entry.name}`, `unexpected entry ${entry.name}`);
    const [, schema, table, part] = m as unknown as [string, 'platform' | 'engine', string, string];
    const text = (await readAll(entry.body)).toString('utf8');
    if (part === 'table.json') {
      const def = JSON.parse(text) as TableDefinition;
      // An engine's file writes only the engine's own platform rows: its members' accounts and rows by engine_code.
      if (schema === 'platform' && (NOT_WITH_ENGINE.has(table) || (table !== 'accounts' && !def.columns?.some((c) => c.name === 'engine_code')))) {
        throw damaged(`组织备份中不应有 ${entry.name}`, `an engine's file holds no ${entry.name}`);
      }
      if (def.table !== table || def.schema !== schema || !Array.isArray(def.columns)) throw damaged(`${entry.name} 描述的不是 ${schema}.${table}`, `${entry.name} does not describe ${schema}.${table}`);
      def.columns.forEach((c) => safeType(c.type));
      if (schema === 'engine') await this.engineTable(def);
      else await this.checkColumns('platform', def);
      this.tables.set(tableKey(schema, table), { def, fileSum: new RowChecksum(), dbSum: new RowChecksum() });
      return false;
    }
    const loaded = this.tables.get(tableKey(schema, table));
    if (!loaded) throw damaged(`${entry.name} 出现在它的 table.json 之前`, `${entry.name} comes before its table.json`);
    const lines = text.split('\n').filter((l) => l.length);
    for (const line of lines) loaded.fileSum.add(line);
    const rows = lines.map((l) => JSON.parse(l) as (string | null)[]);
    if (rows.some((r) => !Array.isArray(r) || r.length !== loaded.def.columns.length)) throw damaged(`${entry.name} 中有一行的列数不对`, `${entry.name} has a row of the wrong width`);
    this.progress.table = table;
    if (schema === 'platform') await this.platformRows(loaded, rows);
    else await this.engineRows(loaded, rows);
    this.progress.rows += rows.length;
    this.o.onProgress?.(this.progress);
    return false;
  }

  private col(def: TableDefinition, name: string): number {
    return def.columns.findIndex((c) => c.name === name);
  }

  private async platformRows(loaded: Loaded, rows: (string | null)[][]): Promise<void> {
    const { def } = loaded;
    const engineCol = this.col(def, 'engine_code');
    if (engineCol >= 0) for (const r of rows) r[engineCol] = this.o.to;
    if (def.table === 'accounts') return this.accounts(loaded, rows);
    if (def.table === 'engines') {
      const state = this.col(def, 'state');
      this.state = rows[0]?.[state] ?? 'normal';
      for (const r of rows) r[state] = 'allocating';
    }
    if (def.table === 'memberships') {
      const account = this.col(def, 'account_id');
      for (const r of rows) r[account] = this.accountIds.get(r[account]!) ?? r[account]!;
    }
    const lines = rows.map((r) => JSON.stringify(r));
    // The engine's own rows go in as they are; a copy's short links and invitation links may collide with the original's.
    const strict = def.table === 'engines' || def.table === 'memberships';
    const inserted = await insertLines(this.trx, 'platform', def.table, def.columns, lines, !strict);
    this.skipped += lines.length - inserted;
  }

  /** An account the target knows (same id, or same mobile number) is kept as it is; the others are added. */
  private async accounts(loaded: Loaded, rows: (string | null)[][]): Promise<void> {
    const { def } = loaded;
    const [id, mobile, last] = ['id', 'mobile', 'last_engine_code'].map((n) => this.col(def, n)) as [number, number, number];
    const known = await sql<{ id: string; mobile: string }>`
      select id, mobile from platform.accounts where id = any(${rows.map((r) => r[id])}) or mobile = any(${rows.map((r) => r[mobile])})`.execute(this.trx);
    const byId = new Set(known.rows.map((k) => k.id));
    const byMobile = new Map(known.rows.map((k) => [k.mobile, k.id]));
    const fresh: string[] = [];
    for (const r of rows) {
      const existing = byId.has(r[id]!) ? r[id]! : byMobile.get(r[mobile]!);
      this.accountIds.set(r[id]!, existing ?? r[id]!);
      if (existing) continue;
      if (last >= 0) r[last] = this.o.to;
      fresh.push(JSON.stringify(r));
      this.o.undo.accounts.push(r[id]!);
    }
    await insertLines(this.trx, 'platform', 'accounts', def.columns, fresh);
  }

  private async engineRows(loaded: Loaded, rows: (string | null)[][]): Promise<void> {
    const { def } = loaded;
    if (def.table === 'files') {
      const [id, key] = [this.col(def, 'id'), this.col(def, 'storage_key')];
      for (const r of rows) {
        if (r[key]?.startsWith(`${this.o.from}/`)) r[key] = `${this.o.to}/${r[key]!.slice(this.o.from.length + 1)}`;
        this.fileKeys.set(r[id]!, r[key]!);
      }
    }
    if (def.table === 'org_users') {
      const account = this.col(def, 'account_id');
      for (const r of rows) if (r[account]) r[account] = this.accountIds.get(r[account]!) ?? r[account];
    }
    const lines = rows.map((r) => JSON.stringify(r));
    for (const line of lines) loaded.dbSum.add(line);
    await insertLines(this.trx, this.o.schema, def.table, def.columns, lines);
  }

  /** A form's table is created from its definition; any other table the migrations made must be there with its columns. */
  private async engineTable(def: TableDefinition): Promise<void> {
    if (!def.form) return this.checkColumns(this.o.schema, def);
    const body = [
      ...def.form.columns.map((c) => {
        const type = safeType(c.type);
        if (c.generated !== undefined) return `${quoteIdent(c.name)} ${type} generated always as (${this.raw(c.generated)}) stored`;
        return `${quoteIdent(c.name)} ${type}${c.notNull ? ' not null' : ''}${c.default ? ` default ${this.raw(c.default)}` : ''}`;
      }),
      ...def.form.constraints.filter((c) => !c.foreignKey).map((c) => `constraint ${quoteIdent(c.name)} ${this.raw(c.definition)}`),
    ];
    await sql.raw(`create table ${quoteIdent(this.o.schema)}.${quoteIdent(def.table)} (${body.join(', ')})`).execute(this.trx);
  }

  private async checkColumns(schema: string, def: TableDefinition): Promise<void> {
    const have = await sql<{ name: string }>`
      select attname as name from pg_attribute where attrelid = to_regclass(${`${quoteIdent(schema)}.${quoteIdent(def.table)}`}) and attnum > 0 and not attisdropped and attgenerated = ''`.execute(this.trx);
    if (!have.rows.length) throw damaged(`在备份的迁移版本下没有表 ${def.table}`, `the table ${def.table} does not exist at the file's migration level`);
    const names = new Set(have.rows.map((r) => r.name));
    const missing = def.columns.find((c) => !names.has(c.name));
    if (missing) throw damaged(`在备份的迁移版本下表 ${def.table} 没有列 ${missing.name}`, `the table ${def.table} has no column ${missing.name} at the file's migration level`);
  }

  /** A definition the file gives, pointed at the new schema; one statement only. */
  private raw(definition: string): string {
    if (definition.includes(';')) throw damaged('表定义中含有多条语句', 'a table definition holds more than one statement');
    const from = `e_${this.o.from}`;
    return definition.replace(new RegExp(`(^|[\\s(,])"?${from}"?\\.`, 'g'), `$1${quoteIdent(this.o.schema)}.`);
  }

  private async file(entry: TarEntry): Promise<void> {
    const id = entry.name.slice('files/'.length);
    const key = this.fileKeys.get(id);
    if (!key) throw damaged(`${entry.name} 不在文件表中`, `${entry.name} is not in the files table`);
    this.progress.phase = 'files';
    this.progress.table = undefined;
    const hash = createHash('sha256');
    const existing = await this.store.get(key);
    if (existing) {
      // Already in the store (a restore into a fresh database beside the same folder or bucket): kept when identical.
      const theirs = createHash('sha256');
      for await (const chunk of existing as AsyncIterable<Buffer>) theirs.update(chunk);
      for await (const chunk of entry.body) hash.update(chunk);
      const sha256 = hash.digest('hex');
      if (theirs.digest('hex') !== sha256) throw new Error(`the file store already holds other bytes at ${key}`);
      this.seenFiles.set(id, { sha256, size: entry.size });
    } else {
      this.o.undo.files.push(key);
      const body = entry.body;
      const hashing = Readable.from(
        (async function* () {
          for await (const chunk of body) {
            hash.update(chunk);
            yield chunk;
          }
        })(),
      );
      await this.store.put(key, hashing, { maxBytes: entry.size });
      const sha256 = hash.digest('hex');
      const back = await this.store.get(key);
      const again = createHash('sha256');
      for await (const chunk of (back ?? []) as AsyncIterable<Buffer>) again.update(chunk);
      if (again.digest('hex') !== sha256) throw new Error(`the file store gave back other bytes for ${key}`);
      this.seenFiles.set(id, { sha256, size: entry.size });
    }
    this.progress.files += 1;
    this.progress.bytes += entry.size;
    this.o.onProgress?.(this.progress);
  }

  /** Checks everything against the manifest, puts indexes, keys and sequences back, and reads the tables back. */
  async finish(): Promise<{ tables: number; rows: number; files: number; skipped: number; state: string }> {
    const manifest = this.manifest;
    if (!manifest) throw damaged('文件在清单（manifest.json）之前就结束了', 'the file ends before its manifest');
    for (const [key, summary] of Object.entries(manifest.tables ?? {})) {
      const t = this.tables.get(key);
      if (!t) throw damaged(`缺少 ${key}`, `${key} is missing`);
      if (t.fileSum.rows !== summary.rows || t.fileSum.hex() !== summary.checksum) throw damaged(`${key} 的数据与清单不符`, `the rows of ${key} differ from the manifest`);
    }
    for (const key of this.tables.keys()) if (!manifest.tables?.[key]) throw damaged(`清单中没有 ${key}`, `${key} is not in the manifest`);
    for (const f of manifest.files ?? []) {
      const seen = this.seenFiles.get(f.id);
      if (!seen) throw damaged(`缺少文件 ${f.id}`, `the file ${f.id} is missing`);
      if (seen.sha256 !== f.sha256 || seen.size !== f.size) throw damaged(`文件 ${f.id} 与其校验和不符`, `the file ${f.id} differs from its checksum`);
    }
    if (this.seenFiles.size !== (manifest.files ?? []).length) throw damaged('备份中有清单未列出的文件', 'the file holds files its manifest does not name');
    const engine = await sql`select from platform.engines where engine_code = ${this.o.to}`.execute(this.trx);
    if (!engine.rows.length) throw damaged('备份中没有组织记录', 'the file holds no engine row');
    this.progress.phase = 'checking';
    this.o.onProgress?.(this.progress);
    const schema = this.o.schema;
    for (const s of manifest.sequences ?? []) {
      if (!/^\d+$/.test(s.lastValue)) throw damaged(`序列 ${s.name} 的值不是数字`, `the sequence ${s.name} has no number`);
      await sql`select setval(to_regclass(${`${quoteIdent(schema)}.${quoteIdent(s.name)}`}), ${s.lastValue}::bigint, ${s.isCalled}) where to_regclass(${`${quoteIdent(schema)}.${quoteIdent(s.name)}`}) is not null`.execute(this.trx);
    }
    const forms = [...this.tables.values()].filter((t) => t.def.schema === 'engine' && t.def.form);
    const trigram = forms.some((t) => t.def.form!.indexes.some((i) => i.includes('gin_trgm_ops'))) ? await ensureTrigram(this.trx) : null;
    for (const t of forms) {
      for (const index of t.def.form!.indexes) if (trigram || !index.includes('gin_trgm_ops')) await sql.raw(this.raw(index)).execute(this.trx);
    }
    for (const fk of this.droppedForeignKeys) await sql`alter table ${sql.id(schema, fk.table)} add constraint ${sql.id(fk.name)} ${sql.raw(fk.definition)}`.execute(this.trx);
    for (const t of forms) {
      for (const c of t.def.form!.constraints.filter((c) => c.foreignKey)) {
        await sql.raw(`alter table ${quoteIdent(schema)}.${quoteIdent(t.def.table)} add constraint ${quoteIdent(c.name)} ${this.raw(c.definition)}`).execute(this.trx);
      }
    }
    let rows = 0;
    for (const t of this.tables.values()) {
      if (t.def.schema !== 'engine') continue;
      const back = new RowChecksum();
      await readLines(this.trx, schema, t.def.table, t.def.columns, undefined, async (lines) => lines.forEach((l) => back.add(l)));
      if (back.rows !== t.dbSum.rows || back.hex() !== t.dbSum.hex()) throw new Error(`the restored table ${t.def.table} reads back differently`);
      rows += back.rows;
    }
    this.progress.phase = 'done';
    this.o.onProgress?.(this.progress);
    const tables = [...this.tables.values()].filter((t) => t.def.schema === 'engine').length;
    return { tables, rows, files: this.seenFiles.size, skipped: this.skipped, state: this.state };
  }
}
