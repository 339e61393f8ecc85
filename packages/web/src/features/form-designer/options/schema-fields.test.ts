import { describe, expect, it } from 'vitest';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { MAX_SELECT_OPTIONS } from '@tritium/shared/constants/limits';
import { blankValue, describeType, issuesByPath, newOptions, setAtPath, type FieldType, type OptionField } from './schema-fields.ts';

const fieldsOf = (key: string): OptionField[] => {
  const type = describeType(controlTypeByKey(key)!.options);
  if (type.kind !== 'object') throw new Error(`${key} options are not an object`);
  return type.fields;
};
const field = (typeKey: string, key: string) => fieldsOf(typeKey).find((f) => f.key === key)!;
const kind = (type: FieldType) => type.kind;

describe('reading option schemas', () => {
  it('turns a drop-down schema into fields of the right kinds', () => {
    const fields = fieldsOf('dropDown');
    expect(fields.map((f) => f.key).slice(0, 3)).toEqual(['displayName', 'visible', 'hideCondition']);
    expect(field('dropDown', 'displayName').type).toEqual({ kind: 'string', maxLength: 200 });
    expect(kind(field('dropDown', 'required').type)).toBe('boolean');
    const items = field('dropDown', 'defaultItems').type;
    expect(items).toMatchObject({ kind: 'list', item: { kind: 'string' }, maxItems: MAX_SELECT_OPTIONS });
    expect(field('dropDown', 'defaultValue')).toMatchObject({ nullable: true, type: { kind: 'string' } });
    expect(field('dropDown', 'association')).toMatchObject({ nullable: true, type: { kind: 'object' } });
    expect(kind(field('dropDown', 'itemColors').type)).toBe('record');
  });

  it('reads enums, literals, numbers behind transforms and preprocessors, and tagged unions', () => {
    expect(field('textBox', 'textMode').type).toEqual({ kind: 'choice', values: ['Normal', 'Email', 'IdCard', 'Telephone'] });
    expect(field('map', 'range')).toMatchObject({ nullable: true, type: { kind: 'choice', values: [200, 500, 1000] } });
    expect(field('number', 'decimalPlaces')).toMatchObject({ optional: true, type: { kind: 'number', min: 0, max: 16, integer: true } });
    expect(field('dateTime', 'displayFormat').type).toMatchObject({ kind: 'choice' });
    const parts = field('seqNo', 'seqNoStructure').type;
    expect(parts.kind).toBe('list');
    if (parts.kind !== 'list' || parts.item.kind !== 'variant') throw new Error('sequence parts are a tagged union');
    expect(parts.item.discriminator).toBe('type');
    expect(parts.item.variants.map((v) => v.value)).toEqual(['createdTime', 'increment', 'fixedValue', 'formControl']);
    expect(parts.item.variants[1].fields.map((f) => f.key)).toEqual(['digits']);
  });

  it('starts new values from the defaults, then from empties', () => {
    const number = controlTypeByKey('number').options;
    expect(newOptions(number)).toMatchObject({ displayName: '数值', showMode: 'normal', rangeRule: null });
    expect(newOptions(number)).not.toHaveProperty('decimalPlaces');
    const range = field('number', 'rangeRule');
    expect(blankValue(range.schema)).toBeNull();
    const parts = field('seqNo', 'seqNoStructure').type;
    if (parts.kind !== 'list') throw new Error('list');
    expect(blankValue(parts.itemSchema)).toEqual({ type: 'createdTime', format: 'yyyy' });
  });

  it('finds problems by path and writes values by path', () => {
    const dropDown = controlTypeByKey('dropDown').options;
    const options = newOptions(dropDown);
    const broken = setAtPath(setAtPath(options, ['defaultItems', 1], ''), ['defaultValue'], '不存在');
    const problems = issuesByPath(dropDown, broken);
    expect(problems.get('defaultItems.1')).toEqual(['选项不能为空']);
    expect(problems.get('defaultValue')).toEqual(['默认值必须是已有选项']);
    expect((broken as { defaultItems: string[] }).defaultItems).toEqual(['选项1', '', '选项3']);
    expect(options.defaultItems).toEqual(['选项1', '选项2', '选项3']);
    expect(setAtPath({ a: 1, b: 2 }, ['a'], undefined)).toEqual({ b: 2 });
  });
});
