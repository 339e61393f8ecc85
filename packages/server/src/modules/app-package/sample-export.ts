import type { contracts } from '@tritium/shared';
import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';
import { formOfNode, anyDb, type DataField } from '../business-data/runtime-form.ts';
import { childRowsOf } from '../business-data/records.repo.ts';
import { fileIdsOf } from '../files/file-controls.ts';
import { UserAuthType } from '@tritium/shared/constants/org';
import { createHash } from 'node:crypto';
import type { FileStore } from '../files/file-store.ts';

// The sample data of a package (docs/decisions/0130): each form's records as the values a save takes. Only what means
// the same in another organisation travels: text, numbers, dates, choices, places, references to records of the app
// (remapped on install) and files (their bytes in the package). People and departments belong to the organisation and
// are left out, as are what the save computes itself (formulas, rollups, numbers, system fields).

const CARRIED = new Set(['string', 'text', 'decimal', 'bool', 'datetime', 'strings', 'address', 'location', 'reference', 'references', 'files']);
const COMPUTED = new Set(['formula', 'rollup', 'seqNo', 'createdTime', 'modifiedTime', 'status', 'ocr']);
const SAMPLE_LIMIT = 100_000;

export const carried = (f: DataField) => CARRIED.has(f.type.dataType) && !COMPUTED.has(f.type.key);

type AddFile = (sha: string, data: Buffer, name: string, contentType: string) => void;

export interface SampleFiles {
  store: FileStore;
  /** The bytes of a stored file, by id (undefined: gone). */
  read(fileId: string): Promise<{ data: Buffer; name: string; contentType: string } | undefined>;
}

function valueOf(field: DataField, raw: unknown): unknown {
  if (raw == null) return undefined;
  if (raw instanceof Date) return raw.toISOString();
  if (field.type.dataType === 'decimal' && typeof raw === 'string') return Number(raw);
  return raw;
}

async function filesOf(value: unknown, files: SampleFiles | undefined, addFile: AddFile): Promise<unknown> {
  if (!files) return undefined;
  const out: { sha256: string; name: string }[] = [];
  for (const id of fileIdsOf(value)) {
    const f = await files.read(id);
    if (!f) continue;
    const sha = createHash('sha256').update(f.data).digest('hex');
    addFile(sha, f.data, f.name, f.contentType);
    out.push({ sha256: sha, name: f.name });
  }
  return out.length ? { $files: out } : undefined;
}

async function rowValues(fields: DataField[], row: Record<string, unknown>, files: SampleFiles | undefined, addFile: AddFile) {
  const values: Record<string, unknown> = {};
  for (const f of fields) {
    if (!carried(f)) continue;
    const v = f.type.dataType === 'files' ? await filesOf(row[f.code], files, addFile) : valueOf(f, row[f.code]);
    if (v !== undefined) values[f.code] = v;
  }
  return values;
}

/** Fills each package form's `samples` from its records (ObjectId kept as `$id`, for references to be remapped). */
export async function readSamples(edb: EngineExecutor, nodes: NodeRow[], forms: contracts.AppPackageInput['forms'], addFile: AddFile, files?: SampleFiles): Promise<void> {
  const viewer = { userId: 'system', authType: UserAuthType.Administrator, unitIds: [] as string[] };
  for (const node of nodes) {
    const target = forms.find((f) => f.code === node.code);
    if (!target) continue;
    const form = await formOfNode(edb, node, viewer, true);
    const rows = (await anyDb(edb).selectFrom(form.mainTable).selectAll().orderBy('CreatedTime').orderBy('ObjectId').limit(SAMPLE_LIMIT).execute()) as Record<string, unknown>[];
    const samples: contracts.AppPackageInput['forms'][number]['samples'] = [];
    const children = new Map<string, Map<string, Record<string, unknown>[]>>();
    for (const grid of form.grids) {
      const byParent = new Map<string, Record<string, unknown>[]>();
      for (let i = 0; i < rows.length; i += 1000) {
        for (const r of await childRowsOf(edb, grid, rows.slice(i, i + 1000).map((x) => String(x.ObjectId)))) {
          const key = String(r.ParentObjectId);
          byParent.set(key, [...(byParent.get(key) ?? []), r]);
        }
      }
      children.set(grid.code, byParent);
    }
    for (const row of rows) {
      const values = await rowValues(form.fields, row, files, addFile);
      values.$id = String(row.ObjectId);
      const kids: Record<string, Record<string, unknown>[]> = {};
      for (const grid of form.grids) {
        const list = children.get(grid.code)?.get(String(row.ObjectId)) ?? [];
        if (list.length) kids[grid.code] = await Promise.all(list.map((r) => rowValues(grid.fields, r, files, addFile)));
      }
      samples.push({ values, children: kids });
    }
    target.samples = samples;
  }
}
