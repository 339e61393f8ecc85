import { describe, expect, it } from 'vitest';
import { CONTROL_ADD_VERIFY_RESULTS } from '../constants/formats.ts';
import { FORM_CONTROL_UPPER_LIMIT, MAX_MAP_CONTROLS } from '../constants/limits.ts';
import { snapshotOf, verifyControlAdd, type FormControlsSnapshot } from './verify-control-add.ts';

const empty: FormControlsSnapshot = snapshotOf([]);
const withTypes = (...types: string[]) => snapshotOf(types.map((type) => ({ type })));

describe('verifyControlAdd', () => {
  it('accepts an ordinary control on the form, in a sub-table, a tab or a layout', () => {
    for (const target of ['root', 'subTable', 'tab', 'layout'] as const) {
      expect(verifyControlAdd(empty, 'textBox', target)).toBe('success');
    }
    expect(verifyControlAdd(empty, 'textBox')).toBe('success');
  });

  it('onlyOne: a second system control of the same kind', () => {
    expect(verifyControlAdd(withTypes('textBox'), 'seqNo')).toBe('success');
    expect(verifyControlAdd(withTypes('seqNo'), 'seqNo')).toBe('onlyOne');
    expect(verifyControlAdd(withTypes('creator'), 'owner')).toBe('success');
    expect(verifyControlAdd(withTypes('status'), 'status', 'tab')).toBe('onlyOne');
  });

  it(`upperLimit: an ${MAX_MAP_CONTROLS + 1}th location control`, () => {
    const six = withTypes(...Array.from({ length: MAX_MAP_CONTROLS - 1 }, () => 'map'));
    expect(verifyControlAdd(six, 'map')).toBe('success');
    const seven = withTypes(...Array.from({ length: MAX_MAP_CONTROLS }, () => 'map'));
    expect(verifyControlAdd(seven, 'map')).toBe('upperLimit');
    expect(verifyControlAdd(seven, 'textBox')).toBe('success');
  });

  it('upperLimit: a form already holding the most controls a form may have', () => {
    const full: FormControlsSnapshot = { total: FORM_CONTROL_UPPER_LIMIT, countByType: { textBox: FORM_CONTROL_UPPER_LIMIT } };
    expect(verifyControlAdd(full, 'number')).toBe('upperLimit');
    expect(verifyControlAdd({ ...full, total: FORM_CONTROL_UPPER_LIMIT - 1 }, 'number')).toBe('success');
  });

  it('gridViewNoSupport: a sub-table, system control or layout control inside a sub-table', () => {
    expect(verifyControlAdd(empty, 'gridView', 'subTable')).toBe('gridViewNoSupport');
    expect(verifyControlAdd(empty, 'creator', 'subTable')).toBe('gridViewNoSupport');
    expect(verifyControlAdd(empty, 'groupTitle', 'subTable')).toBe('gridViewNoSupport');
    expect(verifyControlAdd(empty, 'formula', 'subTable')).toBe('success');
  });

  it('tabNoSupport: a tab inside a tab', () => {
    expect(verifyControlAdd(empty, 'tab', 'tab')).toBe('tabNoSupport');
    expect(verifyControlAdd(empty, 'gridView', 'tab')).toBe('success');
  });

  it('layoutNoSupport: a sub-table, tab or another layout inside a layout', () => {
    expect(verifyControlAdd(empty, 'gridView', 'layout')).toBe('layoutNoSupport');
    expect(verifyControlAdd(empty, 'layout', 'layout')).toBe('layoutNoSupport');
    expect(verifyControlAdd(empty, 'tab', 'layout')).toBe('layoutNoSupport');
  });

  it('checks every container on the way, the innermost first', () => {
    expect(verifyControlAdd(empty, 'gridView', ['root', 'tab'])).toBe('success');
    expect(verifyControlAdd(empty, 'gridView', ['tab', 'layout'])).toBe('layoutNoSupport');
    expect(verifyControlAdd(empty, 'tab', ['tab', 'layout'])).toBe('layoutNoSupport');
    expect(verifyControlAdd(empty, 'textBox', ['tab', 'layout'])).toBe('success');
  });

  it('other: a type the registry does not know', () => {
    expect(verifyControlAdd(empty, 'spreadsheet')).toBe('other');
    expect(verifyControlAdd(empty, 'textBox', 'sidebar' as never)).toBe('other');
  });

  it('answers only with the spec results', () => {
    const seen = new Set([
      verifyControlAdd(empty, 'textBox'),
      verifyControlAdd(withTypes('seqNo'), 'seqNo'),
      verifyControlAdd(withTypes(...Array(MAX_MAP_CONTROLS).fill('map')), 'map'),
      verifyControlAdd(empty, 'gridView', 'subTable'),
      verifyControlAdd(empty, 'tab', 'tab'),
      verifyControlAdd(empty, 'layout', 'layout'),
      verifyControlAdd(empty, 'x'),
    ]);
    expect([...seen].sort()).toEqual([...CONTROL_ADD_VERIFY_RESULTS].sort());
  });
});

describe('snapshotOf', () => {
  it('counts controls inside sub-tables, layouts and tab panes', () => {
    const snapshot = snapshotOf([
      { type: 'map' },
      { type: 'gridView', controls: [{ type: 'map' }, { type: 'textBox' }] },
      { type: 'tab', panes: [{ controls: [{ type: 'layout', controls: [{ type: 'map' }] }] }, { controls: [] }] },
    ]);
    expect(snapshot.total).toBe(7);
    expect(snapshot.countByType).toMatchObject({ map: 3, gridView: 1, tab: 1, layout: 1, textBox: 1 });
  });
});
