import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';

/**
 * Global config of the entry app (calls.md §2): the previous full path, recorded before each navigation,
 * and the global query parameters of the current location (read by the shared reader).
 */

/** Canonical name → value; loginInvalid and isExperienceMode are always present ('false' by default). */
export type GlobalQueryParams = ReturnType<typeof readGlobalQueryParams>;

interface GlobalConfig {
  /** The full path (pathname + search + hash) the user was on before the current one. */
  previousPath: string | undefined;
  currentPath: string | undefined;
  queryParams: GlobalQueryParams;
}

export const globalConfig: GlobalConfig = {
  previousPath: undefined,
  currentPath: undefined,
  queryParams: readGlobalQueryParams(''),
};

type LocationLike = { pathname: string; search: string; hash: string };

export function fullPathOf(location: LocationLike): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** Called for every location the router settles on; keeps the one before it. */
export function recordNavigation(location: LocationLike): void {
  const next = fullPathOf(location);
  if (next === globalConfig.currentPath) return;
  globalConfig.previousPath = globalConfig.currentPath;
  globalConfig.currentPath = next;
  globalConfig.queryParams = readGlobalQueryParams(location.search);
}
