import { z } from 'zod';

// Workflow time limits (issue 21 "Workflow time limits"; docs/decisions/0042). A participative node may give its work
// items a deadline counted from their arrival — calendar hours, or working days — and say what happens when it
// passes; it may also urge the holder every N hours until the item is done. Pure: the engine's core computes the
// deadline when it opens an item, the scheduler's sweep acts on it.

export const TIME_LIMIT_UNITS = ['hours', 'workingDays'] as const;
export type TimeLimitUnit = (typeof TIME_LIMIT_UNITS)[number];

/** remind: tell the holder; approve / reject: act for them; transfer: to `transferTo`; escalate: to their manager. */
export const TIMEOUT_ACTIONS = ['remind', 'approve', 'reject', 'transfer', 'escalate'] as const;
export type TimeoutAction = (typeof TIMEOUT_ACTIONS)[number];

export const TimeLimit = z
  .strictObject({
    amount: z.number().positive().max(8760),
    unit: z.enum(TIME_LIMIT_UNITS).default('hours'),
    onTimeout: z.enum(TIMEOUT_ACTIONS).default('remind'),
    /** The receiver of a `transfer`. */
    transferTo: z.string().trim().min(1).max(64).optional(),
    /** Urge the holder every this many hours from arrival until the item is done (none when absent). */
    urgeEveryHours: z.number().positive().max(720).optional(),
  })
  .refine((t) => t.onTimeout !== 'transfer' || !!t.transferTo, { message: '超时转交须指定接收人', path: ['transferTo'] })
  .refine((t) => t.unit !== 'workingDays' || Number.isInteger(t.amount), { message: '工作日须为整数', path: ['amount'] });
export type TimeLimit = z.infer<typeof TimeLimit>;

/**
 * The node's time limit: `timeLimit`, or the older `timeLimitHours` (stored before limits were enforced) read as
 * hours with a reminder. null when the node has none (Start, Circulate and the other nodes never have one).
 */
export function timeLimitOf(activity: object | undefined): TimeLimit | null {
  const a = (activity ?? {}) as { timeLimit?: TimeLimit | null; timeLimitHours?: number };
  if (a.timeLimit) return a.timeLimit;
  if (a.timeLimitHours) return { amount: a.timeLimitHours, unit: 'hours', onTimeout: 'remind' };
  return null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Working days are Monday–Friday on the China Standard Time calendar (UTC+8, no daylight saving). */
const CHINA_OFFSET = 8 * HOUR;

const isWorkingDay = (chinaMs: number) => {
  const weekday = new Date(chinaMs).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};

/**
 * The deadline of an item that arrived at `arrival`. Hours: arrival + amount hours. Working days: the same time of
 * day `amount` working days later (Monday–Friday, UTC+8); an arrival on a weekend counts from the next Monday's
 * start, so two working days from Saturday noon end on Tuesday at 24:00 (Wednesday 00:00).
 */
export function deadlineOf(limit: TimeLimit, arrival: Date): Date {
  if (limit.unit === 'hours') return new Date(arrival.getTime() + limit.amount * HOUR);
  let china = arrival.getTime() + CHINA_OFFSET;
  if (!isWorkingDay(china)) {
    while (!isWorkingDay(china)) china = Math.floor(china / DAY) * DAY + DAY;
  }
  for (let left = limit.amount; left > 0; ) {
    china += DAY;
    if (isWorkingDay(china)) left--;
  }
  return new Date(china - CHINA_OFFSET);
}

/** The first scheduled urge of an item that arrived at `arrival` (null when the node urges nobody). */
export function firstUrgeOf(limit: TimeLimit | null, arrival: Date): Date | null {
  return limit?.urgeEveryHours ? new Date(arrival.getTime() + limit.urgeEveryHours * HOUR) : null;
}
