import type { Db } from '../../db/types.ts';
import type { FileStore } from '../files/file-store.ts';

// The file store packages and their sample files live in, per database (one app per database; tests build several
// apps in one process), set when the module's routes are registered: the exported functions keep the shapes other
// modules call them with, without a store argument.

const stores = new WeakMap<Db, FileStore>();

export function configureAppPackages(db: Db, store: FileStore): void {
  stores.set(db, store);
}

export function packageStore(db: Db): FileStore {
  const store = stores.get(db);
  if (!store) throw new Error('app packages not configured for this database: appPackageRoutes registers the file store');
  return store;
}
