import { z } from 'zod';
import { listOf, ZeroBasedPageQuery } from '../common.ts';
import { HONOURED_FEATURE_SWITCHES } from '../../constants/feature-switches.ts';

/** Engine info (domain.md §3), as the client sees it. */
export const EngineDto = z.object({
  engineCode: z.string(),
  engineName: z.string(),
  engineType: z.string(),
  entryType: z.string(),
  state: z.string(),
  companyId: z.string(),
  logoUrl: z.string().nullable(),
  createdTime: z.string(),
  /** False for an engine the user joined as an external user (calls.md §3). */
  isPrimary: z.boolean(),
});
export type EngineDto = z.infer<typeof EngineDto>;

export const CurrentUserDto = z.object({
  userId: z.string(),
  accountId: z.string().nullable(),
  name: z.string(),
  mobile: z.string().nullable(),
  /** domain.md §6: Administrator 1 … AppCreator 6. */
  authType: z.number().int(),
  isAdmin: z.boolean(),
  isExternal: z.boolean(),
  companyId: z.string(),
});
export type CurrentUserDto = z.infer<typeof CurrentUserDto>;

/** GET /v1/user/info and /v1/user/reload */
export const UserInfoResult = z.object({ user: CurrentUserDto, currentEngine: EngineDto });
export type UserInfoResult = z.infer<typeof UserInfoResult>;

/** GET /v1/engine/current ("load current engine") */
export const CurrentEngineResult = EngineDto;

/** GET /v1/engine/connected ("list connected engines", pageIndex 0, pageSize 50) */
export const ConnectedEnginesQuery = ZeroBasedPageQuery;
export const ConnectedEnginesResult = listOf(EngineDto);

/** PUT /v1/engine/current: remembers the engine the account works in. */
export const SwitchEngineBody = z.strictObject({ engineCode: z.string().regex(/^[a-z0-9]{4,32}$/) });

/** POST /v1/switch/batch ("batch get feature switches by names"); value '1' is on. */
export const FeatureSwitchesBody = z.strictObject({ names: z.array(z.string().min(1).max(64)).min(1).max(100) });
export const FeatureSwitchesResult = z.object({ switches: z.array(z.object({ name: z.string(), value: z.string() })) });
/** POST /v1/switch/set (Administrators): turns one honoured switch on ('1') or off ('0') for the engine. */
export const SetFeatureSwitchBody = z.strictObject({ name: z.enum(HONOURED_FEATURE_SWITCHES), value: z.enum(['1', '0']) });
export type SetFeatureSwitchBody = z.infer<typeof SetFeatureSwitchBody>;

/** POST /v1/log: the error-log payload of calls.md §3. */
export const ErrorLogBody = z.object({
  Content: z.string().max(4000),
  LogTime: z.string().max(64),
  Level: z.enum(['Error', 'Warn', 'Info']),
  ExceptionContent: z.string().max(20000).optional(),
  ExceptionType: z.string().max(200).optional(),
  Route: z.string().max(2000).optional(),
  UserAgent: z.string().max(1000).optional(),
  BreadCrumb: z.array(z.string().max(2000)).max(10).optional(),
  RequestUrl: z.string().max(2000).optional(),
  ErrorCode: z.union([z.string(), z.number()]).optional(),
});
