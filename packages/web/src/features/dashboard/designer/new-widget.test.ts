import { describe, expect, it } from 'vitest';
import { REPORT_LIMITS, type WidgetType } from '@tritium/shared/report/index';
import { newWidget } from './new-widget.ts';

describe('a new widget in the designer', () => {
  it.each<WidgetType>(['number', 'text', 'link', 'bar', 'table'])('a new %s widget spans half the grid', (type) => {
    expect(newWidget(type, []).layout.w).toBe(REPORT_LIMITS.columns / 2);
  });

  it('lands beside the first one, then under both', () => {
    const first = newWidget('bar', []);
    const second = newWidget('bar', [first]);
    const third = newWidget('bar', [first, second]);
    expect(second.layout).toMatchObject({ x: REPORT_LIMITS.columns / 2, y: 0 });
    expect(third.layout).toMatchObject({ x: 0, y: first.layout.h });
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
  });
});
