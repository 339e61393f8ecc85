import { Readable } from 'node:stream';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { FileStore } from '../files/file-store.ts';
import { findFiles } from '../files/files.repo.ts';
import { appProblems, collectApp } from './package-export.ts';
import { packageLimits, countsOf, readPackageFile, sha256, writePackageFile, type PackageContent } from './package-format.ts';

// Packages kept by the platform (docs/decisions/0130): a row of platform.app_packages (owner engine or null for the
// platform's own, format, size, SHA-256, summary) and the file's bytes in the file store under `app-packages/<id>`.
// Every package is checked whole when it is stored, and again when it is read back.

export interface PackageDeps {
  db: Db;
  store: FileStore;
}

const keyOf = (id: string) => `app-packages/${id}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function summaryOf(pkg: contracts.AppPackage): contracts.PackageSummary {
  const counts = countsOf(pkg);
  const roles = new Set<string>();
  const departments = new Set<string>();
  for (const f of pkg.forms) for (const g of f.permissionGroups) (g.roles.forEach((r) => roles.add(r)), g.departments.forEach((d) => departments.add(d)));
  for (const u of pkg.units) {
    if (u.kind === 'role') roles.add(u.name);
    if (u.kind === 'department') departments.add(u.name);
  }
  return {
    name: pkg.app.name,
    icon: pkg.app.icon,
    formatVersion: pkg.formatVersion,
    formCount: counts.forms,
    nodeCount: counts.nodes,
    sampleRecordCount: counts.sampleRecords,
    fileCount: counts.files,
    externalForms: pkg.externalForms,
    roles: [...roles],
    departments: [...departments],
  };
}

async function keep(deps: PackageDeps, bytes: Buffer, pkg: contracts.AppPackage, owner: string | null, createdBy?: string): Promise<{ packageId: string; summary: contracts.PackageSummary }> {
  const id = newId();
  const summary = summaryOf(pkg);
  await deps.store.put(keyOf(id), Readable.from([bytes]), { maxBytes: packageLimits.maxBytes });
  try {
    await deps.db
      .insertInto('platform.app_packages')
      .values({ id, engine_code: owner, format_version: pkg.formatVersion, byte_size: bytes.length, sha256: sha256(bytes), summary: JSON.stringify(summary), storage_key: keyOf(id), created_by: createdBy ?? null })
      .execute();
  } catch (error) {
    await deps.store.delete(keyOf(id)).catch(() => undefined);
    throw error;
  }
  return { packageId: id, summary };
}

/** A package file (an upload, or a built-in template shipped with the code): checked whole, then kept. */
export async function storePackageFile(deps: PackageDeps, bytes: Buffer, owner: string | null, createdBy?: string): Promise<{ packageId: string; summary: contracts.PackageSummary }> {
  const { pkg } = await readPackageFile(bytes);
  return keep(deps, bytes, pkg, owner, createdBy);
}

/** Packages an app of an engine (refused with its problems when something keeps it from travelling). */
export async function buildAppPackage(deps: PackageDeps, engineCode: string, appCode: string, opts: { sampleData: boolean; createdBy?: string }): Promise<{ packageId: string; summary: contracts.PackageSummary }> {
  const problems = (await appProblems(deps.db, engineCode, appCode)).filter((p) => !p.message.startsWith('引用了应用之外的表单'));
  if (problems.length) throw new AppError('AppPackageBlocked', { detail: { count: problems.length, problems } });
  const edb = engineDb(deps.db, engineCode);
  const files = {
    store: deps.store,
    async read(fileId: string) {
      const [row] = await findFiles(edb, [fileId]);
      const body = row ? await deps.store.get(row.storage_key) : undefined;
      if (!row || !body) return undefined;
      const parts: Buffer[] = [];
      for await (const c of body) parts.push(c as Buffer);
      return { data: Buffer.concat(parts), name: row.name, contentType: row.content_type };
    },
  };
  const content = await collectApp(deps.db, engineCode, appCode, { sampleData: opts.sampleData, files });
  const bytes = await writePackageFile(content);
  return keep(deps, bytes, content.pkg, engineCode, opts.createdBy);
}

/** The stored row of a package the engine may use (its own, or the platform's); otherwise 500007. */
export async function packageRow(db: Db, packageId: string, engineCode: string | null) {
  if (!UUID.test(packageId)) throw new AppError('AppPackageNotFound', { detail: { packageId } });
  const row = await db.selectFrom('platform.app_packages').selectAll().where('id', '=', packageId).executeTakeFirst();
  if (!row || (engineCode !== null && row.engine_code !== null && row.engine_code !== engineCode)) throw new AppError('AppPackageNotFound', { detail: { packageId } });
  return row;
}

/** The file's bytes of a stored package. */
export async function packageBytes(deps: PackageDeps, packageId: string, engineCode: string | null): Promise<Buffer> {
  const row = await packageRow(deps.db, packageId, engineCode);
  const body = await deps.store.get(row.storage_key);
  if (!body) throw new AppError('AppPackageNotFound', { detail: { packageId } });
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(c as Buffer);
  const bytes = Buffer.concat(parts);
  if (sha256(bytes) !== row.sha256) throw new AppError('AppPackageTampered', { detail: { entry: 'package' } });
  return bytes;
}

/** A stored package, read back and checked (engineCode null: any package, for the platform's own callers). */
export async function readPackage(deps: PackageDeps, packageId: string, engineCode: string | null = null): Promise<PackageContent> {
  return readPackageFile(await packageBytes(deps, packageId, engineCode));
}

export { appProblems as checkAppForPackageOf };
