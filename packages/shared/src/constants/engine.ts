/** Engines (organisations): how they are entered, what kind they are and their life-cycle (domain.md §3). */

// domain.md §3 describes eight entries without naming them. Our names: the organisation's own login,
// a workplace-chat provider (personal and corporate), three WeChat-type entries (standard, a second
// standard variant and the service-provider variant) and a collaboration suite (corporate and
// service-provider). 'Enterprise' is what the server writes for engines created by registration.
export const ENTRY_TYPES = [
  'Enterprise',
  'ChatPersonal',
  'ChatCorp',
  'WeChat',
  'WeChatAlt',
  'WeChatIsv',
  'SuiteCorp',
  'SuiteIsv',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

// domain.md §3
export const ENGINE_TYPES = ['SaaSDevelopment', 'Product', 'PrivateDevelopment'] as const;
export type EngineType = (typeof ENGINE_TYPES)[number];

// calls.md §8 names four engine conditions that block sign-in; normal is the usable one.
export const ENGINE_STATES = ['normal', 'disabled', 'migrating', 'archived', 'allocating'] as const;
export type EngineState = (typeof ENGINE_STATES)[number];

// calls.md §8: the login code returned when someone tries to enter an engine in that state.
export const ENGINE_STATE_LOGIN_CODES = {
  disabled: 200401,
  migrating: 200402,
  archived: 200403,
  allocating: 200404,
} as const satisfies Readonly<Partial<Record<EngineState, number>>>;

/** The login error code that refuses entry to an engine in this state, or undefined when it may be entered. */
export function engineStateLoginCode(state: string): number | undefined {
  const codes: Readonly<Record<string, number>> = ENGINE_STATE_LOGIN_CODES;
  return Object.hasOwn(codes, state) ? codes[state] : undefined;
}

// calls.md §7 and §9: the connected-engines list is read as one page of 50 from index 0.
export const CONNECTED_ENGINES_PAGING = { pageIndex: 0, pageSize: 50 } as const;
