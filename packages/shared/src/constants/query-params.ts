/** Query parameters the entry app reads on every route (calls.md §2). */

export interface GlobalQueryParamDefinition {
  /** The name the rest of the code reads. */
  readonly name: string;
  /** Other spellings accepted in the URL; names are compared without case anyway. */
  readonly aliases: readonly string[];
  /** Applied when the parameter is missing or empty. */
  readonly defaultValue?: string;
}

// calls.md §2. The spec says "appId or appCode" and describes four corp/suite ids without naming them;
// appCode (the domain's name) is canonical with appId as its alias, and the four ids get a long name
// and a short alias of our choosing.
export const GLOBAL_QUERY_PARAMS = [
  { name: 'appType', aliases: [] },
  { name: 'authType', aliases: [] },
  { name: 'appCode', aliases: ['appId'] },
  { name: 'agentId', aliases: [] },
  { name: 'corpId', aliases: [] },
  { name: 'wechatCorpId', aliases: ['wxCorpId'] },
  { name: 'isvCorpId', aliases: ['isvCid'] },
  { name: 'wechatSuiteId', aliases: ['wxSuiteId'] },
  { name: 'feishuCorpId', aliases: ['fsCorpId'] },
  { name: 'type', aliases: [] },
  { name: 'menuCode', aliases: [] },
  { name: 'solutionCode', aliases: [] },
  { name: 'suiteKey', aliases: [] },
  { name: 'schemaCode', aliases: [] },
  { name: 'bizObjectId', aliases: [] },
  { name: 'engineCode', aliases: [] },
  { name: 'workitemId', aliases: [] },
  { name: 'code', aliases: [] },
  { name: 'state', aliases: [] },
  { name: 'account', aliases: [] },
  { name: 'messageType', aliases: [] },
  { name: 'taskOpenType', aliases: [] },
  { name: 'sharingKey', aliases: [] },
  { name: 'redirectType', aliases: [] },
  { name: 'redirectUrl', aliases: [] },
  { name: 'token', aliases: [] },
  { name: 'cid', aliases: [] },
  { name: 'loginInvalid', aliases: [], defaultValue: 'false' },
  { name: 'associatedCode', aliases: [] },
  { name: 'externalCode', aliases: [] },
  { name: 'websiteType', aliases: [] },
  { name: 'isExperienceMode', aliases: [], defaultValue: 'false' },
  { name: 'templateId', aliases: [] },
  { name: 'scene', aliases: [] },
  { name: 'queryItems', aliases: [] },
] as const satisfies readonly GlobalQueryParamDefinition[];

export type GlobalQueryParamName = (typeof GLOBAL_QUERY_PARAMS)[number]['name'];

// calls.md §2: the one origin the entry app recognises.
export const FROM_DINGDINGDA = 'dingdingda';

const canonicalByLowerName = new Map<string, GlobalQueryParamName>();
for (const param of GLOBAL_QUERY_PARAMS) {
  canonicalByLowerName.set(param.name.toLowerCase(), param.name);
  for (const alias of param.aliases) canonicalByLowerName.set(alias.toLowerCase(), param.name);
}

/**
 * Reads the global parameters from a query string (with or without the leading '?').
 *
 * - Names match without case and aliases map to the canonical name. When a parameter appears more
 *   than once, its canonical spelling wins over an alias, then the first occurrence wins.
 * - Empty values count as missing; defaults (loginInvalid and isExperienceMode, 'false') fill the gaps.
 * - Unknown parameters are left out.
 * - `from` is derived, not copied: calls.md §2 only says a value of dingdingda is derived. We read it
 *   as "the URL says it came from dingdingda" — a `from` parameter whose value is dingdingda in any
 *   case gives from = 'dingdingda'; any other `from` value is dropped because nothing depends on it.
 */
export function readGlobalQueryParams(search: string): Record<string, string> {
  const query = search.split('#', 1)[0].replace(/^\?/, '');
  const result: Record<string, string> = {};
  const fromAlias = new Set<string>();
  let from: string | undefined;

  for (const [rawName, value] of new URLSearchParams(query)) {
    const lowerName = rawName.toLowerCase();
    if (lowerName === 'from') {
      from ??= value;
      continue;
    }
    const name = canonicalByLowerName.get(lowerName);
    if (!name || value === '') continue;
    const isAlias = lowerName !== name.toLowerCase();
    if (!Object.hasOwn(result, name)) {
      result[name] = value;
      if (isAlias) fromAlias.add(name);
    } else if (!isAlias && fromAlias.has(name)) {
      result[name] = value;
      fromAlias.delete(name);
    }
  }

  for (const param of GLOBAL_QUERY_PARAMS) {
    if ('defaultValue' in param && !Object.hasOwn(result, param.name)) result[param.name] = param.defaultValue;
  }
  if (from?.trim().toLowerCase() === FROM_DINGDINGDA) result.from = FROM_DINGDINGDA;
  return result;
}
