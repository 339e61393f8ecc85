import { z } from 'zod';

// Outside notification channels of an engine (issue 20): e-mail over SMTP, an HTTP SMS provider, chat-platform
// robots. Administrators only, at /v1/notification/channel/*. Secrets are write-only: answers carry `has…` flags,
// and a save that leaves a secret out (or empty) keeps the one already stored.

/** At most this many robots per engine. */
export const NOTIFICATION_ROBOT_LIMIT = 20;

export const RobotPlatform = z.enum(['dingtalk', 'wecom', 'feishu']);
export type RobotPlatform = z.infer<typeof RobotPlatform>;

export const OutsideChannelKind = z.enum(['email', 'sms', 'robot']);

/** An http(s) address (the provider, a robot's webhook). */
const HttpUrl = z.url({ protocol: /^https?$/ }).max(2000);
/** A write-only secret: absent or empty keeps the stored one. */
const Secret = z.string().max(1000).optional();

export const EmailChannelSaveBody = z.strictObject({
  enabled: z.boolean(),
  /** SMTP server host name or address. */
  host: z.string().trim().min(1).max(255).regex(/^[A-Za-z0-9.:\-[\]]+$/),
  port: z.int().min(1).max(65535),
  /** TLS from the first byte (usually port 465); otherwise STARTTLS when the server offers it. */
  secure: z.boolean(),
  /** Sign-in name; empty for a server that needs none. */
  user: z.string().trim().max(255),
  password: Secret,
  fromAddress: z.email().max(255),
  fromName: z.string().trim().max(100),
});
export type EmailChannelSaveBody = z.infer<typeof EmailChannelSaveBody>;

export const EmailChannelDto = z.object({
  configured: z.boolean(),
  enabled: z.boolean(),
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  user: z.string(),
  fromAddress: z.string(),
  fromName: z.string(),
  hasPassword: z.boolean(),
});
export type EmailChannelDto = z.infer<typeof EmailChannelDto>;

export const SmsChannelSaveBody = z.strictObject({
  enabled: z.boolean(),
  /** The provider's address: it receives POST {mobile, content} as JSON. */
  url: HttpUrl,
  /** Sent as `Authorization: Bearer <token>`. */
  token: Secret,
  /** The text sent; `{title}`, `{content}` and `{link}` are filled in. Empty: title, content and link. */
  template: z.string().max(500),
});
export type SmsChannelSaveBody = z.infer<typeof SmsChannelSaveBody>;

export const SmsChannelDto = z.object({
  configured: z.boolean(),
  enabled: z.boolean(),
  url: z.string(),
  template: z.string(),
  hasToken: z.boolean(),
});
export type SmsChannelDto = z.infer<typeof SmsChannelDto>;

export const RobotAddBody = z.strictObject({
  name: z.string().trim().min(1).max(50),
  platform: RobotPlatform,
  webhookUrl: HttpUrl,
  /** Signing secret (DingTalk "加签", Feishu "签名校验"); WeCom has none. */
  secret: Secret,
  enabled: z.boolean().default(true),
});
export type RobotAddBody = z.infer<typeof RobotAddBody>;

export const RobotUpdateBody = z.strictObject({
  id: z.uuid(),
  name: z.string().trim().min(1).max(50),
  platform: RobotPlatform,
  /** Absent or empty keeps the stored address (the address itself holds the robot's access token). */
  webhookUrl: HttpUrl.optional().or(z.literal('')),
  secret: Secret,
  /** Drops the stored signing secret. */
  clearSecret: z.boolean().optional(),
  enabled: z.boolean(),
});
export type RobotUpdateBody = z.infer<typeof RobotUpdateBody>;

export const RobotIdBody = z.strictObject({ id: z.uuid() });

export const RobotDto = z.object({
  id: z.string(),
  name: z.string(),
  platform: RobotPlatform,
  enabled: z.boolean(),
  /** The webhook address with its token hidden, enough to recognise it. */
  webhookUrlMasked: z.string(),
  hasSecret: z.boolean(),
  createdTime: z.string(),
});
export type RobotDto = z.infer<typeof RobotDto>;

export const ChannelListResult = z.object({ email: EmailChannelDto, sms: SmsChannelDto, robots: z.array(RobotDto) });
export type ChannelListResult = z.infer<typeof ChannelListResult>;

export const RobotRemoveResult = z.object({ id: z.string() });

export const ChannelTestBody = z.strictObject({
  kind: OutsideChannelKind,
  /** With kind robot: the robot to try. */
  robotId: z.uuid().optional(),
  /** Another e-mail address or mobile number than the administrator's own. */
  to: z.string().trim().max(255).optional(),
});
export type ChannelTestBody = z.infer<typeof ChannelTestBody>;

/** Whether the test message went out; `detail` is the provider's answer or the reason it failed. */
export const ChannelTestResult = z.object({ sent: z.boolean(), detail: z.string() });
export type ChannelTestResult = z.infer<typeof ChannelTestResult>;
