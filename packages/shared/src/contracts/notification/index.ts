import { z } from 'zod';
import { DELIVERY_STATES, MESSAGE_CATEGORIES, MESSAGE_STATES, OUTSIDE_CHANNELS } from '../../constants/messages.ts';
import { listOf } from '../common.ts';

// The message center (消息中心; calls.md "Reminders and messages": POST /v1/toolkit/internalmessage/list, read,
// count), notification preferences and the delivery log (issue 20; docs/decisions/0038).

const PageSize = z.coerce.number().int().min(1).max(100).default(20);
const PageIndex = z.coerce.number().int().min(0).default(0);
const Category = z.enum(MESSAGE_CATEGORIES);

export const InternalMessageListBody = z.strictObject({
  pageIndex: PageIndex,
  pageSize: PageSize,
  /** unread / read / all (domain.md §4); default all. */
  state: z.enum(MESSAGE_STATES).default('all'),
  /** One category; absent = every category. */
  category: Category.optional(),
});
export type InternalMessageListBody = z.input<typeof InternalMessageListBody>;

/** Where a message leads: a record (schemaCode + objectId), a work item, or nowhere. */
export const MessageLink = z.object({
  schemaCode: z.string().nullable(),
  objectId: z.string().nullable(),
  workItemId: z.string().nullable(),
  instanceId: z.string().nullable(),
});

export const InternalMessageDto = z.object({
  messageId: z.string(),
  /** Increases with every message of the engine: the live stream's event id. */
  seq: z.number().int(),
  category: Category,
  title: z.string(),
  content: z.string(),
  senderId: z.string().nullable(),
  senderName: z.string(),
  state: z.enum(['unread', 'read']),
  link: MessageLink,
  createdTime: z.string(),
  readTime: z.string().nullable(),
});
export type InternalMessageDto = z.infer<typeof InternalMessageDto>;
export const InternalMessageListResult = listOf(InternalMessageDto);
export type InternalMessageListResult = z.infer<typeof InternalMessageListResult>;

/** Marks the named messages read, or every unread one (of one category when given) with `all`. */
export const InternalMessageReadBody = z
  .strictObject({ messageIds: z.array(z.uuid()).min(1).max(500).optional(), all: z.boolean().optional(), category: Category.optional() })
  .refine((b) => !!b.messageIds !== !!b.all, { message: '须提供 messageIds 或 all（二选一）' });
export type InternalMessageReadBody = z.input<typeof InternalMessageReadBody>;
export const InternalMessageReadResult = z.object({ updated: z.number().int() });

export const InternalMessageCountResult = z.object({
  unread: z.number().int(),
  categories: z.array(z.object({ category: Category, unread: z.number().int() })),
});
export type InternalMessageCountResult = z.infer<typeof InternalMessageCountResult>;

// ---- preferences ------------------------------------------------------------------------------------------------

/** Which outside channels carry one category (in-app always does). */
export const CategoryChannels = z.strictObject({ category: Category, channels: z.array(z.enum(OUTSIDE_CHANNELS)).max(OUTSIDE_CHANNELS.length) });
export type CategoryChannels = z.infer<typeof CategoryChannels>;

export const NotificationPreferenceResult = z.object({
  /** The engine's defaults, per category. */
  defaults: z.array(CategoryChannels),
  /** The caller's own choices (categories they changed); the rest follow the defaults. */
  mine: z.array(CategoryChannels),
});
export type NotificationPreferenceResult = z.infer<typeof NotificationPreferenceResult>;

/** Saves the caller's choices (or, for the administrator with `engineDefaults`, the engine's). */
export const NotificationPreferenceSaveBody = z.strictObject({
  preferences: z.array(CategoryChannels).max(20),
  engineDefaults: z.boolean().optional(),
});
export type NotificationPreferenceSaveBody = z.input<typeof NotificationPreferenceSaveBody>;

// ---- delivery log -----------------------------------------------------------------------------------------------

export const DeliveryListBody = z.strictObject({
  pageIndex: PageIndex,
  pageSize: PageSize,
  state: z.enum(DELIVERY_STATES).optional(),
  channel: z.enum(OUTSIDE_CHANNELS).optional(),
});
export type DeliveryListBody = z.input<typeof DeliveryListBody>;

export const DeliveryDto = z.object({
  deliveryId: z.string(),
  channel: z.enum(OUTSIDE_CHANNELS),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  receiverId: z.string(),
  receiverName: z.string(),
  title: z.string(),
  category: Category,
  detail: z.string().nullable(),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
});
export type DeliveryDto = z.infer<typeof DeliveryDto>;
export const DeliveryListResult = listOf(DeliveryDto);
export type DeliveryListResult = z.infer<typeof DeliveryListResult>;
