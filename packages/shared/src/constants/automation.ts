/** Automation triggers, schedules and actions (domain.md §9). */

// domain.md §9: data effective, updated, effective-or-updated, voided, changing, new data, deleted,
// after submit, specified date, timing, webhook, connector, button and custom.
export const AUTOMATION_TRIGGER_TYPES = [
  'dataEffective',
  'dataUpdated',
  'dataEffectiveOrUpdated',
  'dataVoided',
  'dataChanging',
  'dataCreated',
  'dataDeleted',
  'afterSubmit',
  'specifiedDate',
  'timing',
  'webhook',
  'connector',
  'button',
  'custom',
] as const;
export type AutomationTriggerType = (typeof AUTOMATION_TRIGGER_TYPES)[number];

// domain.md §9: how often a timed trigger fires.
export const REPEAT_CYCLES = [
  'once',
  'daily',
  'weekly',
  'biweekly',
  'monthly',
  'quarterly',
  'semiannual',
  'yearly',
  'weekdays',
  'weekends',
  'hourly',
  'minutely',
  'secondly',
] as const;
export type RepeatCycle = (typeof REPEAT_CYCLES)[number];

// domain.md §9
export const AUTOMATION_ACTIONS = [
  'remove',
  'query',
  'update',
  'insert',
  'notification',
  'email',
  'sms',
  'attendance',
  'payment',
  'connector',
  'robotMessage',
] as const;
export type AutomationAction = (typeof AUTOMATION_ACTIONS)[number];
