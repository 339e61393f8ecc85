import { Readable } from 'node:stream';
import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { viewerOf } from '../function-node/node-context.ts';
import { runtimeFormFor, type DataField, type RuntimeForm } from '../business-data/runtime-form.ts';
import { batchState, importPlan, readAssociationsAhead, settle, writeImported } from '../data-port/import-write.ts';
import { ownerContext } from '../data-port/task-files.ts';
import { insertFile } from '../files/files.repo.ts';
import { storageKeyOf } from '../files/storage-key.ts';
import type { FileStore } from '../files/file-store.ts';
import { isFileControl } from '../files/file-controls.ts';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { asRecordSnapshot } from '../business-data/record-hooks-port.ts';
import { referenceOrder, type InstallRun } from './install-steps.ts';

// Sample records of a package (docs/decisions/0130), written by the import's own set-wise path (data-port
// import-write.ts: the save's checks, derived values, rollups and numbering, in batches of one transaction each) as
// Effective records of the installer, and marked in app_sample_records so that they are found and cleared exactly.
// References between sample records point to the new records; files are put in the store and claimed by the save.

const BATCH = 500;

interface Ctx {
  run: InstallRun;
  store: FileStore;
  /** Package record id → new record id. */
  ids: Map<string, string>;
}

async function fileRefs(c: Ctx, edb: ReturnType<typeof engineDb>, value: { $files: { sha256: string; name: string }[] }) {
  const refs = [];
  for (const f of value.$files) {
    const data = c.run.content.files.get(f.sha256);
    const meta = c.run.content.pkg.files.find((x) => x.sha256 === f.sha256);
    if (!data || !meta) continue;
    const id = newId();
    const key = storageKeyOf(c.run.ctx.engineCode, id);
    await c.store.put(key, Readable.from([data]), { maxBytes: data.length });
    await insertFile(edb, { id, scene: 'attachment', name: f.name, size: data.length, content_type: meta.contentType, storage_key: key, created_by: c.run.ctx.userId });
    refs.push({ id, name: f.name, size: data.length, contentType: meta.contentType });
  }
  return refs;
}

/** A package record's values as this engine's save takes them: references and files remapped. */
async function valuesFor(c: Ctx, edb: ReturnType<typeof engineDb>, fields: DataField[], values: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.code];
    if (v === undefined) continue;
    if (f.type.dataType === 'reference') out[f.code] = typeof v === 'string' ? (c.ids.get(v) ?? null) : null;
    else if (f.type.dataType === 'references') out[f.code] = Array.isArray(v) ? v.flatMap((id) => (c.ids.has(String(id)) ? [c.ids.get(String(id))!] : [])) : [];
    else if (isFileControl(f.type)) out[f.code] = v && typeof v === 'object' && '$files' in v ? await fileRefs(c, edb, v as never) : [];
    else out[f.code] = v;
  }
  return out;
}

/**
 * The forms a form's records point to: its association controls' (and its sub-tables'), not every form its definition
 * names — a rollup names the form it sums, whose records point back here and must come after (docs/decisions/0130).
 */
export function associatedForms(definition: unknown, into = new Set<string>()): Set<string> {
  const controls = (definition as { controls?: unknown[] } | null)?.controls ?? [];
  for (const c of controls as { type?: string; options?: { schemaCode?: unknown }; controls?: unknown[] }[]) {
    const dataType = c.type ? controlTypeByKey(c.type)?.dataType : undefined;
    if ((dataType === 'reference' || dataType === 'references') && typeof c.options?.schemaCode === 'string') into.add(c.options.schemaCode);
    if (Array.isArray(c.controls)) associatedForms({ controls: c.controls }, into);
  }
  return into;
}

const hasFiles = (form: RuntimeForm) => form.fields.some((f) => isFileControl(f.type)) || form.grids.some((g) => g.fields.some((f) => isFileControl(f.type)));

/** Writes the package's sample records; progress from `from` to `to` %. Answers how many were written. */
export function installSamples(run: InstallRun, db: Db, store: FileStore, from: number, to: number): Promise<number> {
  // A snapshot of the source's records: its business rules' effects are in it already (asRecordSnapshot).
  return asRecordSnapshot(() => writeSamples(run, db, store, from, to));
}

async function writeSamples(run: InstallRun, db: Db, store: FileStore, from: number, to: number): Promise<number> {
  const forms = referenceOrder(run.content.pkg.forms, associatedForms).ordered.filter((f) => f.samples.length);
  const total = forms.reduce((n, f) => n + f.samples.length, 0);
  if (!total) return 0;
  const c: Ctx = { run, store, ids: new Map() };
  const owner = await ownerContext(engineDb(db, run.ctx.engineCode), { db, engineCode: run.ctx.engineCode }, run.ctx.userId);
  let written = 0;
  for (const pf of forms) {
    const schemaCode = run.codes.get(pf.code)!;
    const selfReferring = associatedForms(pf.definition).has(pf.code);
    for (let i = 0; i < pf.samples.length; i += BATCH) {
      const part = pf.samples.slice(i, i + BATCH);
      await db.transaction().execute(async (trx) => {
        const edb = engineDb(trx as unknown as Db, run.ctx.engineCode);
        const form = await runtimeFormFor(edb, await viewerOf(edb, owner), schemaCode);
        const plan = await importPlan(edb, form, 'Effective');
        // Files are claimed by the save itself: such forms go through it record by record.
        const b = batchState(edb, form, owner, hasFiles(form) ? { ...plan, hooks: true } : plan, new Date());
        const marks: { app_code: string; schema_code: string; object_id: string }[] = [];
        const input = async (record: (typeof part)[number]) => {
          const values = await valuesFor(c, edb, form.fields, record.values);
          const children: Record<string, Record<string, unknown>[]> = {};
          for (const grid of form.grids) {
            const rows = record.children[grid.code];
            if (rows?.length) children[grid.code] = await Promise.all(rows.map((r) => valuesFor(c, edb, grid.fields, r)));
          }
          return { values, children, keyValue: null };
        };
        // The batch's associations read at once (docs/decisions/0135) — unless its records point to each other, when
        // each must be written before the next names it.
        const ahead = selfReferring ? undefined : await Promise.all(part.map(input));
        if (ahead) await readAssociationsAhead(b, ahead);
        for (const [k, record] of part.entries()) {
          const objectId = await writeImported(b, ahead?.[k] ?? (await input(record)), undefined);
          if (typeof record.values.$id === 'string') c.ids.set(record.values.$id, objectId);
          marks.push({ app_code: run.appCode, schema_code: schemaCode, object_id: objectId });
        }
        await settle(b);
        if (marks.length) await edb.insertInto('app_sample_records').values(marks).execute();
      });
      written += part.length;
      await run.progress(from + ((to - from) * written) / total, `写入示例数据 ${written}/${total}`);
    }
  }
  return written;
}
