import { describe, expect, it } from 'vitest';
import { SYSTEM_FIELDS } from '../constants/form.ts';
import {
  CONTROL_TYPES,
  controlStorage,
  controlTypeByCode,
  controlTypeByKey,
  controlTypesInGroup,
} from './registry.ts';
import { CONTROL_GROUPS, CONTROL_TYPE_KEYS } from './types.ts';

const keys = CONTROL_TYPES.map((type) => type.key);

describe('the registry', () => {
  it('holds every control type of domain.md §3 exactly once', () => {
    expect(CONTROL_TYPE_KEYS).toHaveLength(43);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...CONTROL_TYPE_KEYS].sort());
  });

  it('gives every type its own code', () => {
    const codes = CONTROL_TYPES.map((type) => type.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const type of CONTROL_TYPES) expect(controlTypeByCode(type.code)).toBe(type);
  });

  it('keeps the product numbering where the product has one, and ours above 1000 elsewhere', () => {
    const product = {
      textBox: 1, textArea: 2, dateTime: 3, number: 4, radioList: 5, checkboxList: 6, dropDown: 7, checkbox: 8,
      areaSelect: 9, map: 10, multiUser: 11, user: 12, department: 13, multiDepartment: 14, attachment: 15, photo: 16,
      groupTitle: 101, layout: 102, description: 103, gridView: 104, seqNo: 201, creator: 202, owner: 203,
      ownerDepartment: 204, createdTime: 205, modifiedTime: 206, label: 207, associationQuery: 301,
      associationQueryMulti: 302, associatedProperty: 303, formula: 304, button: 305, handSign: 306,
    } as const;
    for (const [key, code] of Object.entries(product)) expect(controlTypeByKey(key)?.code, key).toBe(code);
    const ours = CONTROL_TYPES.filter((type) => !(type.key in product));
    expect(ours.map((type) => type.key).sort()).toEqual(
      ['advancedButton', 'batchScan', 'dynamic', 'eSign', 'faceRecognition', 'ocr', 'plugin', 'rollup', 'status', 'tab'],
    );
    for (const type of ours) expect(type.code).toBeGreaterThan(1000);
  });

  it('finds types by key and by code, and nothing for unknown ones', () => {
    expect(controlTypeByKey('textBox').displayName['zh-CN']).toBe('单行文本');
    expect(controlTypeByKey('nope')).toBeUndefined();
    expect(controlTypeByKey('toString')).toBeUndefined();
    expect(controlTypeByCode(104)?.key).toBe('gridView');
    expect(controlTypeByCode(999)).toBeUndefined();
  });

  it('lists the types in palette order: basic, system, advanced, layout', () => {
    const groupOrder = CONTROL_TYPES.map((type) => CONTROL_GROUPS.indexOf(type.group));
    expect(groupOrder).toEqual([...groupOrder].sort((a, b) => a - b));
    expect(CONTROL_GROUPS.flatMap((group) => controlTypesInGroup(group))).toEqual([...CONTROL_TYPES]);
    expect(controlTypesInGroup('system').map((type) => type.key)).toContain('seqNo');
    expect(controlTypesInGroup('layout').map((type) => type.key)).toEqual(
      expect.arrayContaining(['groupTitle', 'layout', 'description', 'gridView', 'tab']),
    );
  });

  it('names every type in Chinese and English', () => {
    for (const type of CONTROL_TYPES) {
      expect(type.displayName['zh-CN'], type.key).not.toBe('');
      expect(type.displayName['en-US'], type.key).toMatch(/^[A-Z]/);
    }
  });
});

describe('storage', () => {
  it('gives every data type a column, and none to controls without data', () => {
    for (const type of CONTROL_TYPES) {
      const holdsNothing = type.dataType === 'none' || type.dataType === 'lookup';
      expect(type.column === null, type.key).toBe(holdsNothing);
      expect(type.value === null, type.key).toBe(holdsNothing);
    }
    const noData = CONTROL_TYPES.filter((type) => type.dataType === 'none').map((type) => type.key);
    expect(noData.sort()).toEqual(
      ['advancedButton', 'button', 'description', 'groupTitle', 'label', 'layout', 'tab'].sort(),
    );
  });

  it('stores the sub-table as a child table and multi-value types as arrays or JSON', () => {
    expect(controlTypeByKey('gridView').column).toEqual({ childTable: true });
    expect(controlTypeByKey('checkboxList').column).toEqual({ sqlType: 'text[]' });
    expect(controlTypeByKey('multiUser').column).toEqual({ sqlType: 'text[]' });
    expect(controlTypeByKey('associationQueryMulti').column).toEqual({ sqlType: 'text[]' });
    expect(controlTypeByKey('attachment').column).toEqual({ sqlType: 'jsonb' });
    expect(controlTypeByKey('textBox').column).toEqual({ sqlType: 'varchar(200)' });
  });

  it('reads system controls from their system column, one per form and never in a sub-table', () => {
    const system = CONTROL_TYPES.filter((type) => type.column && 'systemField' in type.column);
    expect(system.map((type) => type.key).sort()).toEqual(
      ['createdTime', 'creator', 'modifiedTime', 'owner', 'ownerDepartment', 'seqNo', 'status'].sort(),
    );
    for (const type of system) {
      const field = (type.column as { systemField: string }).systemField;
      expect(SYSTEM_FIELDS, type.key).toContain(field);
      expect(type.placement, type.key).toMatchObject({ onlyOne: true, subTable: false });
    }
  });

  it('follows bindType for formula and rollup', () => {
    const formula = controlTypeByKey('formula');
    expect(controlStorage(formula, formula.options.parse({}))).toEqual({ dataType: 'decimal', column: { sqlType: 'numeric' } });
    expect(controlStorage(formula, formula.options.parse({ bindType: 'DateTime' }))).toEqual({
      dataType: 'datetime',
      column: { sqlType: 'timestamptz' },
    });
    const rollup = controlTypeByKey('rollup');
    expect(controlStorage(rollup, rollup.options.parse({ bindType: 'bool' })).column).toEqual({ sqlType: 'boolean' });
    const text = controlTypeByKey('textBox');
    expect(controlStorage(text, text.options.parse({}))).toEqual({ dataType: 'string', column: text.column });
  });

  it('names the outside service of the controls that need one', () => {
    const services = Object.fromEntries(
      CONTROL_TYPES.filter((type) => type.service).map((type) => [type.key, type.service]),
    );
    expect(services).toEqual({
      ocr: 'ocr',
      eSign: 'eSign',
      faceRecognition: 'faceRecognition',
      plugin: 'plugin',
      advancedButton: 'connector',
    });
  });
});

describe('containers', () => {
  it('lets only sub-tables and layouts hold controls, and only tabs hold panes', () => {
    const holders = Object.fromEntries(
      CONTROL_TYPES.filter((type) => type.children).map((type) => [type.key, type.children]),
    );
    expect(holders).toEqual({ gridView: 'controls', layout: 'controls', tab: 'panes' });
  });

  it('keeps grid views out of grid views and tabs out of tabs and sub-tables', () => {
    expect(controlTypeByKey('gridView').placement.subTable).toBe(false);
    expect(controlTypeByKey('tab').placement).toMatchObject({ subTable: false, tab: false, layout: false });
  });
});
