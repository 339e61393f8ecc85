/** The browser's local cache database (domain.md §3, §9; calls.md §3, §9). */

// domain.md §3: each record is keyed by engine code plus key, so engines never read each other's cache.
export const LOCAL_CACHE_TABLES = [
  'schema',
  'viewSetting',
  'formGridSetting',
  'viewListSetting',
  'viewPersonalization',
] as const;
export type LocalCacheTable = (typeof LOCAL_CACHE_TABLES)[number];

// domain.md §9, calls.md §9: bump the version to drop caches written in an older shape.
export const LOCAL_DB_VERSION = 5;
// domain.md §9, calls.md §9: appended to the database name.
export const LOCAL_DB_NAME_SUFFIX = 3;
