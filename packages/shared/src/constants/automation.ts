/**
 * Automation triggers, schedules and actions (domain.md §9), as the automation model (automation/model.ts), the
 * server and the designer name them — defined here once.
 */

/** domain.md §9: the trigger types, in the spec's order (data effective, updated, effective-or-updated, voided, changing, new data, deleted, after submit, specified date, timing, webhook, connector, button, custom). `connector` runs only when a plugin provides it. */
export const AUTOMATION_TRIGGERS = [
  'effective',
  'updated',
  'effectiveOrUpdated',
  'voided',
  'changing',
  'created',
  'deleted',
  'submitted',
  'date',
  'timing',
  'webhook',
  'connector',
  'button',
  'custom',
] as const;
export type AutomationTriggerType = (typeof AUTOMATION_TRIGGERS)[number];

/** Triggers fired by a record's save, removal or flow. */
export const DATA_EVENT_TRIGGERS = ['effective', 'updated', 'effectiveOrUpdated', 'voided', 'changing', 'created', 'deleted', 'submitted'] as const satisfies readonly AutomationTriggerType[];
export type DataEventTrigger = (typeof DATA_EVENT_TRIGGERS)[number];

/** domain.md §9: how often a timed trigger fires. */
export const REPEAT_CYCLES = ['once', 'daily', 'weekly', 'biweekly', 'monthly', 'quarterly', 'semiannual', 'yearly', 'weekdays', 'weekends', 'hourly', 'minutely', 'secondly'] as const;
export type RepeatCycle = (typeof REPEAT_CYCLES)[number];

/**
 * domain.md §9: the actions (remove, query, update, insert data, notification, e-mail, SMS, attendance, payment,
 * connector, robot message), and the HTTP request issue 21 adds. Attendance and payment are declared and offered
 * only when a plugin provides them; the connector step runs a connector of the engine (docs/decisions/0120).
 */
export const AUTOMATION_ACTIONS = ['remove', 'query', 'update', 'insert', 'notification', 'email', 'sms', 'attendance', 'payment', 'connector', 'robot', 'http'] as const;
export type AutomationActionType = (typeof AUTOMATION_ACTIONS)[number];
export const PLUGIN_ACTIONS = ['attendance', 'payment'] as const satisfies readonly AutomationActionType[];
