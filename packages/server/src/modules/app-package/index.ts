// App packages (issue 46; docs/decisions/0130): an app as a versioned, checked file; export, import, install as a
// crash-safe background job, sample data. The functions other modules (templates, 0131) call.
import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { appProblems } from './package-export.ts';
import { buildAppPackage as build, readPackage as read, storePackageFile as storeFile, type PackageDeps } from './package-store.ts';
import type { PackageContent } from './package-format.ts';

export type PackageProblem = contracts.PackageProblem;
export type PackageSummary = contracts.PackageSummary;
export type { PackageDeps, PackageContent };

/** What keeps an app from being packaged (forms outside the app, unpublished forms, engine-specific connectors…), with paths. */
export function checkAppForPackage(db: Db, engineCode: string, appCode: string): Promise<PackageProblem[]> {
  return appProblems(db, engineCode, appCode);
}

/** Packages an app of an engine and keeps it (platform.app_packages, bytes in the file store). */
export function buildAppPackage(deps: PackageDeps, engineCode: string, appCode: string, opts: { sampleData: boolean }): Promise<{ packageId: string; summary: PackageSummary }> {
  return build(deps, engineCode, appCode, opts);
}

/** Checks a package file (upload, or a built-in template's file) and keeps it; owner: the engine, or null for the platform's. */
export function storePackageFile(deps: PackageDeps, bytes: Buffer, owner: string | null): Promise<{ packageId: string; summary: PackageSummary }> {
  return storeFile(deps, bytes, owner);
}

/** A stored package, read back and checked. */
export function readPackage(deps: PackageDeps, packageId: string): Promise<PackageContent> {
  return read(deps, packageId, null);
}

export { startPackageInstall, installProgress, cancelInstall, retryInstall, APP_INSTALL_JOB } from './install.job.ts';
export { sampleDataOf, clearSampleData } from './sample-data.ts';
export { summaryOf } from './package-store.ts';
