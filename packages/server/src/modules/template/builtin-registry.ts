import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import { readPackage, storePackageFile } from '../app-package/index.ts';
import type { FileStore } from '../files/file-store.ts';
import type { TemplatePicture } from './template.tables.ts';
import { templateDb } from './template.tables.ts';

// The built-in templates (docs/decisions/0131 "Built-in templates"): each is a package file shipped in
// packages/server/templates/ with a manifest `<code>.template.json` beside it. Registering reads them at start and
// records each as a Platform template marked built_in. It is idempotent by the package's SHA-256: a manifest whose
// package is already registered changes nothing, a changed package becomes the next version of the same template,
// and processes starting together leave one row per code (one insert-or-update statement decides).

/**
 * packages/server/templates/, or the folder TRITIUM_TEMPLATES_DIR names (an installation's own built-ins, tests). Found
 * from the server package's folder, the nearest one above this module holding a package.json: the sources and the
 * bundle (packages/server/dist/main.mjs, docs/decisions/0093) lie at different depths below it.
 */
export function builtInDir(): string {
  if (process.env.TRITIUM_TEMPLATES_DIR) return process.env.TRITIUM_TEMPLATES_DIR;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'templates');
}

const PICTURE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif' };
const RelativeFile = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_\-./]+$/, '文件名只含字母、数字、-、_、. 和 /')
  .refine((f) => !f.split('/').includes('..') && !f.startsWith('/'), '文件须在模板目录内');

/** A built-in template's manifest, `<code>.template.json`. */
export const BuiltInManifest = z.strictObject({
  code: z.string().regex(/^[a-z][a-z0-9-]{1,47}$/, 'code 为小写字母开头的字母、数字和 -'),
  name: z.string().trim().min(2).max(32),
  category: contracts.TemplateCategory,
  summary: z.string().max(200).default(''),
  description: z.string().max(2000).default(''),
  icon: z.string().max(64).default(''),
  iconColor: z.string().max(16).default(''),
  /** The package file, relative to the folder. */
  package: RelativeFile,
  /** Pictures of its screens (png, jpg, webp, gif), relative to the folder; at most 6. */
  pictures: z.array(RelativeFile.refine((f) => path.extname(f).toLowerCase() in PICTURE_TYPES, '截图须为 png、jpg、webp 或 gif')).max(6).default([]),
});
export type BuiltInManifest = z.infer<typeof BuiltInManifest>;

export interface RegisterResult {
  registered: string[];
  unchanged: string[];
  failed: { file: string; reason: string }[];
}

/** Registers every manifest of `dir` (a missing folder registers none). */
export async function registerBuiltInTemplates(deps: { db: Db; store: FileStore }, dir: string = builtInDir()): Promise<RegisterResult> {
  const result: RegisterResult = { registered: [], unchanged: [], failed: [] };
  if (!existsSync(dir)) return result;
  const manifests = (await readdir(dir)).filter((f) => f.endsWith('.template.json')).sort();
  for (const file of manifests) {
    try {
      const manifest = BuiltInManifest.parse(JSON.parse(await readFile(path.join(dir, file), 'utf8')));
      for (const p of [manifest.package, ...manifest.pictures]) if (!existsSync(path.join(dir, p))) throw new Error(`${p} 不存在`);
      const changed = await registerOne(deps, dir, manifest);
      (changed ? result.registered : result.unchanged).push(manifest.code);
    } catch (error) {
      result.failed.push({ file, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}

async function registerOne(deps: { db: Db; store: FileStore }, dir: string, manifest: BuiltInManifest): Promise<boolean> {
  const tdb = templateDb(deps.db);
  const bytes = await readFile(path.join(dir, manifest.package));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const pictures: TemplatePicture[] = manifest.pictures.map((file) => ({ kind: 'builtIn', file, contentType: PICTURE_TYPES[path.extname(file).toLowerCase()]! }));
  const metadata = {
    name: manifest.name,
    category: manifest.category,
    summary: manifest.summary,
    description: manifest.description,
    icon: manifest.icon,
    icon_color: manifest.iconColor,
    pictures: JSON.stringify(pictures),
  };
  const known = await tdb.selectFrom('platform.templates').select(['id', 'package_sha256']).where('code', '=', manifest.code).where('built_in', '=', true).executeTakeFirst();
  if (known?.package_sha256 === sha256) {
    // The same package: only the manifest's words and pictures may have changed.
    await tdb.updateTable('platform.templates').set(metadata).where('id', '=', known.id).execute();
    return false;
  }
  const stored = await storePackageFile({ db: deps.db, store: deps.store }, bytes, null);
  const { pkg } = await readPackage({ db: deps.db, store: deps.store }, stored.packageId);
  const names = new Map(pkg.nodes.map((n) => [n.code, n.name]));
  const summary = { ...stored.summary, forms: pkg.forms.map((f) => ({ name: names.get(f.code) ?? f.code, sampleCount: f.samples.length })) };
  const written = await tdb
    .insertInto('platform.templates')
    .values({ id: newId(), code: manifest.code, scope: 'Platform', built_in: true, publisher_engine: null, source_app_code: null, package_id: stored.packageId, package_sha256: sha256, package_summary: JSON.stringify(summary), published_time: new Date(), ...metadata })
    .onConflict((oc) =>
      oc
        .column('code')
        .doUpdateSet((eb) => ({ ...metadata, package_id: eb.ref('excluded.package_id'), package_sha256: eb.ref('excluded.package_sha256'), package_summary: eb.ref('excluded.package_summary'), version: eb('platform.templates.version', '+', 1), published_time: new Date() }))
        .where('platform.templates.built_in', '=', true)
        .where((eb) => eb('platform.templates.package_sha256', 'is distinct from', eb.ref('excluded.package_sha256'))),
    )
    .executeTakeFirst();
  return Number(written.numInsertedOrUpdatedRows ?? 0) > 0;
}
