/** Read states of messages and reminders, and the states of plugins and connections (domain.md §1, §4). */

// domain.md §4: "all" is a filter value, not a state a message can be in.
export const MESSAGE_STATES = ['unread', 'read', 'all'] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

// domain.md §4, calls.md §4: a reminder's taskState.
export const REMINDER_STATES = ['unread', 'read'] as const;
export type ReminderState = (typeof REMINDER_STATES)[number];

// domain.md §1: kinds of plugin an engine can add.
export const PLUGIN_KINDS = [
  'ocr',
  'eSign',
  'payment',
  'sms',
  'email',
  'faceRecognition',
  'attendance',
  'robotMessage',
] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

// domain.md §4: whether an engine has a plugin.
export const PLUGIN_STATES = ['uninstalled', 'installed'] as const;
export type PluginState = (typeof PLUGIN_STATES)[number];

// domain.md §4: where a plugin template stands in publication.
export const PLUGIN_PUBLICATION_STATES = ['prePublish', 'underReview', 'published'] as const;
export type PluginPublicationState = (typeof PLUGIN_PUBLICATION_STATES)[number];

// domain.md §4: progress of installing a plugin; installing is the transient one.
export const PLUGIN_INSTALL_STATUSES = ['notInstalled', 'installed', 'installing'] as const;
export type PluginInstallStatus = (typeof PLUGIN_INSTALL_STATUSES)[number];

// domain.md §4, calls.md §4: a connection config's settable status.
export const CONNECTION_CONFIG_STATES = ['disabled', 'normal', 'exception'] as const;
export type ConnectionConfigState = (typeof CONNECTION_CONFIG_STATES)[number];

// Issue 20: what a message in the message center (消息中心) is about. Producers pick one; users choose per category
// which outside channels also carry it.
export const MESSAGE_CATEGORIES = ['workflow', 'comment', 'tasktip', 'dataport', 'automation', 'system'] as const;
export type MessageCategory = (typeof MESSAGE_CATEGORIES)[number];

export const MESSAGE_CATEGORY_LABELS: Readonly<Record<MessageCategory, { zh: string; en: string }>> = {
  workflow: { zh: '流程', en: 'Workflow' },
  comment: { zh: '评论', en: 'Comments' },
  tasktip: { zh: '任务提醒', en: 'Task tips' },
  dataport: { zh: '导入导出', en: 'Import and export' },
  automation: { zh: '自动化', en: 'Automations' },
  system: { zh: '系统通知', en: 'System notices' },
};

/**
 * The channels a message can reach a person through: in-app always, the outside ones by preference. `chatApp`: a
 * personal work message in DingTalk, WeCom or Feishu through the engine's own app (docs/decisions/0123 "Chat apps").
 */
export const OUTSIDE_CHANNELS = ['email', 'sms', 'robot', 'chatApp'] as const;
export type OutsideChannel = (typeof OUTSIDE_CHANNELS)[number];

/** A delivery over an outside channel (the administrator's delivery log). */
export const DELIVERY_STATES = ['Waiting', 'Succeeded', 'Retrying', 'Failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** A failed delivery is tried this many times in all before it shows as failed. */
export const MAX_DELIVERY_ATTEMPTS = 4;
