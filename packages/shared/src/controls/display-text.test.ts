import { describe, expect, it } from 'vitest';
import { controlDisplayText, controlTypeByKey, type ControlOptions } from './registry.ts';
import { formatDateTime } from './display.ts';
import type { ControlTypeKey } from './types.ts';

const optionsOf = <K extends ControlTypeKey>(key: K, input: object = {}) =>
  controlTypeByKey(key).options.parse(input) as ControlOptions<K>;

describe('displayText', () => {
  it('returns an empty string for empty values, leaving -- to the UI', () => {
    expect(controlTypeByKey('number').displayText(null, optionsOf('number'))).toBe('');
    expect(controlTypeByKey('checkboxList').displayText([], optionsOf('checkboxList'))).toBe('');
    expect(controlTypeByKey('dateTime').displayText(undefined, optionsOf('dateTime'))).toBe('');
    expect(controlDisplayText({ type: 'textBox', options: {} }, null)).toBe('');
  });

  it('joins checkbox items with ;', () => {
    expect(controlTypeByKey('checkboxList').displayText(['甲', '乙', '丙'], optionsOf('checkboxList'))).toBe('甲;乙;丙');
  });

  it('shows numbers with the control decimals, percentages with a % sign', () => {
    const number = controlTypeByKey('number');
    expect(number.displayText(3, optionsOf('number'))).toBe('3');
    expect(number.displayText(2.456, optionsOf('number', { decimalPlaces: 2 }))).toBe('2.46');
    expect(number.displayText(25.5, optionsOf('number', { showMode: 'percentage' }))).toBe('25.50%');
    expect(number.displayText(-0.5, optionsOf('number', { decimalPlaces: 1, showMode: 'bar' }))).toBe('-0.5%');
    expect(number.displayText(-0.001, optionsOf('number'))).toBe('0');
  });

  it('shows dates in the display format, in China time by default', () => {
    const date = controlTypeByKey('dateTime');
    const moment = '2026-03-01T16:05:09Z';
    expect(date.displayText(moment, optionsOf('dateTime'))).toBe('2026-03-02 00:05');
    expect(date.displayText(moment, optionsOf('dateTime', { displayFormat: 'yyyy-mm-dd' }))).toBe('2026-03-02');
    expect(date.displayText(moment, optionsOf('dateTime', { displayFormat: 'yyyy-mm' }))).toBe('2026-03');
    expect(date.displayText(moment, optionsOf('dateTime', { displayFormat: 'hh:mm' }))).toBe('00:05');
    expect(date.displayText(moment, optionsOf('dateTime'), { timeZone: 'UTC' })).toBe('2026-03-01 16:05');
    expect(formatDateTime(moment, 'yyyy-mm-dd hh:mm:ss', 'UTC')).toBe('2026-03-01 16:05:09');
    expect(formatDateTime('not a date', 'yyyy-mm-dd')).toBe('');
  });

  it('shows yes/no and statuses in the asked language', () => {
    expect(controlTypeByKey('checkbox').displayText(true, optionsOf('checkbox'))).toBe('是');
    expect(controlTypeByKey('checkbox').displayText(false, optionsOf('checkbox'), { locale: 'en-US' })).toBe('No');
    expect(controlTypeByKey('status').displayText(3, optionsOf('status'))).toBe('已作废');
    expect(controlTypeByKey('status').displayText(0, optionsOf('status'), { locale: 'en-US' })).toBe('Draft');
  });

  it('shows names of users, departments and associated rows when it can look them up', () => {
    const names: Record<string, string> = { u1: '张三', u2: '李四', r1: '合同-001' };
    const context = { unitName: (id: string) => names[id], objectName: (id: string) => names[id] };
    expect(controlTypeByKey('multiUser').displayText(['u1', 'u2', 'u9'], optionsOf('multiUser'), context)).toBe('张三;李四;u9');
    expect(controlTypeByKey('user').displayText('u1', optionsOf('user'))).toBe('u1');
    expect(controlTypeByKey('associationQuery').displayText('r1', optionsOf('associationQuery'), context)).toBe('合同-001');
  });

  it('shows addresses, locations, files and sub-table row counts', () => {
    const address = { adcode: '440305', adname: '广东省 深圳市 南山区', detail: '科技园' };
    expect(controlTypeByKey('areaSelect').displayText(address, optionsOf('areaSelect'))).toBe('广东省 深圳市 南山区 科技园');
    const place = { address: '深圳湾', point: { lat: 22.5, lng: 113.9 } };
    expect(controlTypeByKey('map').displayText(place, optionsOf('map'))).toBe('深圳湾');
    const files = [
      { id: 'f1', name: 'a.pdf', size: 1, contentType: 'application/pdf' },
      { id: 'f2', name: 'b.png', size: 1, contentType: 'image/png' },
    ];
    expect(controlTypeByKey('attachment').displayText(files, optionsOf('attachment'))).toBe('a.pdf;b.png');
    expect(controlTypeByKey('gridView').displayText([{ a: 1 }, { a: 2 }], optionsOf('gridView'))).toBe('2');
  });

  it('formats computed values by their bindType', () => {
    const formula = controlTypeByKey('formula');
    expect(formula.displayText(1.5, optionsOf('formula', { decimalPlaces: 2 }))).toBe('1.50');
    expect(formula.displayText('2026-03-01T00:00:00Z', optionsOf('formula', { bindType: 'datetime', displayFormat: 'yyyy-mm-dd' }))).toBe('2026-03-01');
    expect(formula.displayText(true, optionsOf('formula', { bindType: 'bool' }))).toBe('是');
  });

  it('shows values that do not fit the control as they are, and looks up associated properties by their source type', () => {
    expect(controlDisplayText({ type: 'number', options: optionsOf('number') }, 'abc')).toBe('abc');
    expect(controlDisplayText({ type: 'unknownType', options: {} }, 42)).toBe('42');
    const property = {
      type: 'associatedProperty',
      options: optionsOf('associatedProperty', {
        sourcePropertySchema: { schemaCode: 'contract', propertyCode: 'tags', controlType: 'checkboxList' },
      }),
    };
    expect(controlDisplayText(property, ['甲', '乙'])).toBe('甲;乙');
    expect(controlDisplayText({ type: 'associatedProperty', options: optionsOf('associatedProperty') }, true)).toBe('是');
  });
});
