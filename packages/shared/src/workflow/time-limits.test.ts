import { describe, expect, it } from 'vitest';
import { WorkflowTemplate, type WorkflowTemplateInput } from './model.ts';
import { validateTemplate } from './validate.ts';
import { TimeLimit, deadlineOf, firstUrgeOf, timeLimitOf } from './time-limits.ts';

// China time (UTC+8) written as such, so the weekdays read plainly.
const cst = (text: string) => new Date(`${text}+08:00`);

describe('workflow time limits', () => {
  it('reads an old timeLimitHours as hours with a reminder, and prefers timeLimit', () => {
    expect(timeLimitOf({ timeLimitHours: 4 })).toEqual({ amount: 4, unit: 'hours', onTimeout: 'remind' });
    const limit = TimeLimit.parse({ amount: 1, onTimeout: 'approve' });
    expect(timeLimitOf({ timeLimit: limit, timeLimitHours: 4 })).toEqual({ amount: 1, unit: 'hours', onTimeout: 'approve' });
    expect(timeLimitOf({})).toBeNull();
    expect(timeLimitOf({ timeLimit: null })).toBeNull();
  });

  it('old templates with timeLimitHours still parse', () => {
    const t: WorkflowTemplateInput = {
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Approve', code: 'A1', name: '审批', participants: { sources: [{ type: 'originator' }] }, timeLimitHours: 24 },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [
        { from: 'Start', to: 'A1' },
        { from: 'A1', to: 'End' },
      ],
    };
    const a1 = WorkflowTemplate.parse(t).activities[1];
    expect(timeLimitOf(a1 as never)).toMatchObject({ amount: 24, unit: 'hours' });
  });

  it('counts calendar hours from arrival', () => {
    expect(deadlineOf(TimeLimit.parse({ amount: 1.5 }), cst('2026-11-27T23:00:00'))).toEqual(cst('2026-11-28T00:30:00'));
  });

  it('counts working days Monday to Friday in China time', () => {
    const two = TimeLimit.parse({ amount: 2, unit: 'workingDays' });
    // Thursday 10:00 + 2 working days → Monday 10:00 (the weekend does not count).
    expect(deadlineOf(two, cst('2026-11-26T10:00:00'))).toEqual(cst('2026-11-30T10:00:00'));
    // Saturday noon counts from Monday 00:00: the end of Tuesday.
    expect(deadlineOf(two, cst('2026-11-28T12:00:00'))).toEqual(cst('2026-12-02T00:00:00'));
    // Friday 23:30 China time is Friday 15:30 UTC: one working day → Monday 23:30.
    expect(deadlineOf(TimeLimit.parse({ amount: 1, unit: 'workingDays' }), cst('2026-11-27T23:30:00'))).toEqual(cst('2026-11-30T23:30:00'));
  });

  it('schedules the first urge N hours after arrival', () => {
    const arrival = cst('2026-11-26T10:00:00');
    expect(firstUrgeOf(TimeLimit.parse({ amount: 8, urgeEveryHours: 2 }), arrival)).toEqual(cst('2026-11-26T12:00:00'));
    expect(firstUrgeOf(TimeLimit.parse({ amount: 8 }), arrival)).toBeNull();
  });

  it('asks for a receiver of a transfer, whole working days, and no auto-reject on a fill node', () => {
    expect(TimeLimit.safeParse({ amount: 1, onTimeout: 'transfer' }).success).toBe(false);
    expect(TimeLimit.safeParse({ amount: 1.5, unit: 'workingDays' }).success).toBe(false);
    const t = WorkflowTemplate.parse({
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Fill', code: 'F1', name: '经办', participants: { sources: [{ type: 'originator' }] }, timeLimit: { amount: 1, onTimeout: 'reject' } },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [
        { from: 'Start', to: 'F1' },
        { from: 'F1', to: 'End' },
      ],
    });
    expect(validateTemplate(t).map((i) => i.rule)).toContain('timeLimit');
  });
});
