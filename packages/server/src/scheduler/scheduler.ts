import type { Db } from '../db/types.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

// The scheduler (issue 21; docs/decisions/0041): every process ticks every few seconds and runs each registered sweep
// with the clock's time. A sweep finds what fell due — timed automations, date triggers, workflow time limits — and
// claims it in the database (FOR UPDATE SKIP LOCKED, or a conditional update) so that, with several processes on one
// PostgreSQL, each due thing is handled once. Schedules live in the database: what fell due while no process ran is
// found by the first tick after a start. Tests drive time through the clock and call tick(); nothing sleeps.

/** The time as the scheduler sees it (tests move it; production reads the system clock). */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export interface ScheduledSweep {
  /** Runs once per tick with the clock's time; answers how many things it handled. */
  run(db: Db, now: Date): Promise<number>;
}

/** Sweeps by name: the scheduler runs them in the order registered (no switch over kinds). */
export class SweepRegistry {
  private readonly sweeps = new Map<string, ScheduledSweep>();

  register(name: string, sweep: ScheduledSweep): this {
    if (this.sweeps.has(name)) throw new Error(`sweep ${name} is registered twice`);
    this.sweeps.set(name, sweep);
    return this;
  }

  entries(): [string, ScheduledSweep][] {
    return [...this.sweeps.entries()];
  }
}

export interface Scheduler {
  /** Runs every sweep once; answers what each handled. A sweep's failure is logged and does not stop the others. */
  tick(): Promise<Record<string, number>>;
  start(): void;
  stop(): Promise<void>;
  /** When the last tick ended (the process's own time, ms), while started; the metrics' scheduler lag. */
  lastTickEnded(): number | undefined;
}

export interface SchedulerOptions {
  db: Db;
  sweeps: SweepRegistry;
  clock?: Clock;
  intervalMs: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const clock = options.clock ?? systemClock;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let lastTickEnded: number | undefined;

  async function tick(): Promise<Record<string, number>> {
    const now = clock();
    const handled: Record<string, number> = {};
    for (const [name, sweep] of options.sweeps.entries()) {
      try {
        handled[name] = await sweep.run(options.db, now);
      } catch (error) {
        if (isDatabaseUnavailable(error)) options.log?.warn({ sweep: name }, 'scheduler waiting for the database');
        else options.log?.error({ err: error, sweep: name }, 'scheduled sweep failed');
        handled[name] = 0;
      }
    }
    return handled;
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    const current = tick();
    running = current;
    await current.catch(() => undefined);
    running = undefined;
    lastTickEnded = Date.now();
    if (!stopped) timer = setTimeout(() => void loop(), options.intervalMs);
  }

  return {
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setTimeout(() => void loop(), 0);
    },
    lastTickEnded: () => (stopped ? undefined : lastTickEnded),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}

/**
 * A sweep that keeps each engine's rows of some log for `retentionMs`: every `everyMs`, `removeBefore` runs for every
 * engine past allocation with the cut-off time, and the sweep answers how many rows went.
 */
export function retentionSweep(options: { retentionMs: number; everyMs: number; removeBefore: (db: Db, engineCode: string, cutoff: Date) => Promise<number> }): ScheduledSweep {
  let last = -Infinity;
  return {
    async run(db, now) {
      if (now.getTime() - last < options.everyMs) return 0;
      last = now.getTime();
      const cutoff = new Date(now.getTime() - options.retentionMs);
      const engines = await db.selectFrom('platform.engines').select('engine_code').where('state', '!=', 'allocating').execute();
      let removed = 0;
      for (const { engine_code } of engines) removed += await options.removeBefore(db, engine_code, cutoff);
      return removed;
    },
  };
}
