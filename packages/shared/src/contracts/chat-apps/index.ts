import { z } from 'zod';

// Work notifications in the chat apps (issue 44, docs/decisions/0123 "Chat apps"): the administrator switches the
// `chatApp` channel on and picks which of the engine's chat platforms (their sign-in apps) carry personal work messages.

export const ChatAppPlatform = z.enum(['dingtalk', 'wxwork', 'feishu']);
export type ChatAppPlatform = z.infer<typeof ChatAppPlatform>;

export const ChatAppChannelSaveBody = z.strictObject({
  enabled: z.boolean(),
  /** In order of preference: a person gets the message on the first platform they have an account on. */
  platforms: z.array(ChatAppPlatform).max(3).refine((list) => new Set(list).size === list.length, '平台不能重复'),
});
export type ChatAppChannelSaveBody = z.infer<typeof ChatAppChannelSaveBody>;

export const ChatAppChannelDto = z.object({
  enabled: z.boolean(),
  platforms: z.array(ChatAppPlatform),
  /** Each platform's sign-in app: whether it is set up (AppKey, AppSecret, and the AgentId the messages need) and on. */
  apps: z.array(z.object({ platform: ChatAppPlatform, configured: z.boolean(), enabled: z.boolean(), hasAgentId: z.boolean(), people: z.number().int() })),
});
export type ChatAppChannelDto = z.infer<typeof ChatAppChannelDto>;

/** POST /v1/notification/channel/chat-app/test: a test work message to the administrator through one platform's app. */
export const ChatAppTestBody = z.strictObject({ platform: ChatAppPlatform });
export type ChatAppTestBody = z.infer<typeof ChatAppTestBody>;

/** GET /v1/chat-apps/open/:platform/:engineCode?to=: the card's link; `to` is a path of this site (the record). */
export const ChatAppOpenParams = z.strictObject({ platform: ChatAppPlatform, engineCode: z.string().min(1).max(64) });
export const ChatAppOpenQuery = z.strictObject({ to: z.string().min(1).max(2000) });

// The automation attendance step's settings (the step's `settings`; checked on save and on run).

const ControlCode = z.string().trim().min(1).max(64);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD');

/** Which days, as calendar days in China time (UTC+8) relative to the run: yesterday, the last N days up to today, or fixed. */
export const AttendanceRange = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('yesterday') }),
  z.strictObject({ type: z.literal('lastDays'), days: z.int().min(1).max(31) }),
  z.strictObject({ type: z.literal('fixed'), from: Day, to: Day }),
]);
export type AttendanceRange = z.infer<typeof AttendanceRange>;

/** Whose punches: everyone bound to the platform, or the members of one department (and its sub-departments). */
export const AttendancePeople = z.discriminatedUnion('type', [z.strictObject({ type: z.literal('all') }), z.strictObject({ type: z.literal('department'), departmentId: z.string().min(1).max(64) })]);

export const AttendanceStepSettings = z.strictObject({
  targetSchemaCode: ControlCode,
  range: AttendanceRange,
  people: AttendancePeople.default({ type: 'all' }),
  /** Target form's controls: user (a user control) and time (a date control) required; the rest text controls. */
  mappings: z.strictObject({
    user: ControlCode,
    time: ControlCode,
    punchType: ControlCode.optional(),
    result: ControlCode.optional(),
    location: ControlCode.optional(),
  }),
});
export type AttendanceStepSettings = z.infer<typeof AttendanceStepSettings>;
