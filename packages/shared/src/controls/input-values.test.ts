import { describe, expect, it } from 'vitest';
import { ControlDefinition } from './control-definition.ts';
import { controlChoices, controlFromInput, parseDateTimeInput } from './input-values.ts';
import { CONTROL_TYPES, controlTypeByKey } from './registry.ts';
import { droppedKeys } from './unknown-keys.ts';

describe('one input converter per control type (decision 0029)', () => {
  it('reads every accepted date format as the same moment, in China time when no zone is written', () => {
    const expected = '2023-10-18T00:00:00.000Z';
    for (const text of ['2023-10-18T08:00:00+08:00', '2023-10-18T00:00:00Z', '2023-10-18 08:00', '2023-10-18 08:00:00', '2023-10-18T08:00', '2023/10/18 8:00', '2023年10月18日 8时0分']) {
      expect(parseDateTimeInput(text), text).toBe(expected);
    }
    expect(parseDateTimeInput('2023-10-18')).toBe('2023-10-17T16:00:00.000Z');
    expect(parseDateTimeInput('20231018')).toBe('2023-10-17T16:00:00.000Z');
  });

  it('refuses impossible or unreadable dates (the value schema then names the problem)', () => {
    for (const text of ['2024-02-30', '2023-13-01', '2023-10-18 24:00', 'tomorrow', '', '18/10/2023']) expect(parseDateTimeInput(text), text).toBeNull();
    const date = controlTypeByKey('dateTime');
    const value = controlFromInput(date, 'tomorrow');
    expect(date.value.safeParse(value).success).toBe(false);
    expect(date.value.safeParse(controlFromInput(date, '2023-10-18')).success).toBe(true);
  });

  it('converts numbers, yes/no and joined checkbox items, leaving what it cannot read', () => {
    expect(controlFromInput(controlTypeByKey('number'), '1,234.5')).toBe(1234.5);
    expect(controlFromInput(controlTypeByKey('number'), 'abc')).toBe('abc');
    expect(controlFromInput(controlTypeByKey('checkbox'), '是')).toBe(true);
    expect(controlFromInput(controlTypeByKey('checkbox'), 'false')).toBe(false);
    expect(controlFromInput(controlTypeByKey('checkboxList'), 'a; b；c')).toEqual(['a', 'b', 'c']);
    expect(controlFromInput(controlTypeByKey('textBox'), ' x ')).toBe(' x ');
  });

  it('names the items a list control accepts; a drop-down fed by another form accepts any text', () => {
    const dropDown = controlTypeByKey('dropDown');
    expect(controlChoices(dropDown, dropDown.options.parse({ defaultItems: ['A', 'B'] }))).toEqual(['A', 'B']);
    const fed = dropDown.options.parse({ association: { schemaCode: 'Goods', field: 'Name' } });
    expect(controlChoices(dropDown, fed)).toBeNull();
    expect(controlChoices(controlTypeByKey('textBox'), {})).toBeNull();
  });
});

describe('unknown keys in control definitions (decision 0029)', () => {
  it('no control type drops a key of its own parsed options (no false alarms on a saved definition)', () => {
    for (const type of CONTROL_TYPES) {
      const parsed = type.options.parse({});
      expect(droppedKeys(parsed, type.options.parse(parsed)), type.key).toEqual([]);
    }
  });

  it('refuses a display name under the wrong key and a misspelt formula expression, each with its path', () => {
    const result = ControlDefinition.safeParse({ type: 'formula', code: 'Total', options: { name: '合计', expresion: '{A}+1' } });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['options.name', 'options.expresion']));
  });

  it('refuses an unknown key nested in a setting and on the control itself', () => {
    const nested = ControlDefinition.safeParse({ type: 'textBox', code: 'A', options: { dataLink: { schemaCode: 'F', conditions: [{ field: 'A', sourceField: 'B', op: 'eq' }], resultField: 'C' } } });
    expect(nested.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['options.dataLink.conditions.0.op']);
    const outer = ControlDefinition.safeParse({ type: 'textBox', code: 'A', displayName: '客户' });
    expect(outer.success).toBe(false);
    expect(ControlDefinition.safeParse({ type: 'textBox', code: 'A', options: { displayName: '客户' } }).success).toBe(true);
  });
});
