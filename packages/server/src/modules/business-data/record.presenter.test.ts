import { describe, expect, it } from 'vitest';
import { presentRecord, presentValues } from './record.presenter.ts';
import type { DataField, RuntimeForm } from './runtime-form.ts';

// A list's row as the API answers it (docs/decisions/0007, 0037): system fields first, then the values the caller may
// see in their JSON formats; built field by field into one object (docs/decisions/0100).

const field = (code: string, sqlType: DataField['sqlType']): DataField => ({ code, sqlType, type: {} as DataField['type'], options: {} });
const fields = [field('Title', 'varchar(200)'), field('Qty', 'numeric'), field('Due', 'timestamptz'), field('Files', 'jsonb'), field('Secret', 'text')];
const formWith = (hidden: string[]) => ({ fields, rights: { fields: new Map(hidden.map((c) => [c, 'hidden'])) } }) as unknown as RuntimeForm;
const row = {
  ObjectId: '0190d0c4-0000-7000-8000-000000000001', Name: 'r1', Status: 1, CreatedBy: 'u1', ModifiedBy: 'u1', OwnerId: 'u1', OwnerDeptId: 'd1',
  CreatedTime: new Date('2026-11-01T00:00:00Z'), ModifiedTime: '2026-11-02 08:00:00+08', SeqNo: null, WorkflowInstanceId: null,
  Title: '任务', Qty: '12.50', Due: new Date('2026-12-01T16:00:00Z'), Files: '[{"id":"f1"}]', Secret: '内部',
};

describe('presentRecord', () => {
  it('answers the system fields, then every field in its JSON format, in that order', () => {
    const out = presentRecord(formWith([]), row);
    expect(Object.keys(out)).toEqual([
      'ObjectId', 'Name', 'Status', 'CreatedBy', 'ModifiedBy', 'OwnerId', 'OwnerDeptId', 'CreatedTime', 'ModifiedTime', 'SeqNo', 'WorkflowInstanceId',
      'Title', 'Qty', 'Due', 'Files', 'Secret',
    ]);
    expect(out).toMatchObject({ CreatedTime: '2026-11-01T00:00:00.000Z', ModifiedTime: '2026-11-02T00:00:00.000Z', Qty: 12.5, Due: '2026-12-01T16:00:00.000Z', Files: [{ id: 'f1' }] });
  });

  it('leaves out the fields hidden from the caller', () => {
    const out = presentRecord(formWith(['Secret']), row);
    expect(out).not.toHaveProperty('Secret');
    expect(out.Title).toBe('任务');
  });

  it('keeps a field coded "__proto__" as a value of its own, never the object\'s prototype', () => {
    // A row as pg gives it: "__proto__" an own column, its JSON value a text.
    const out = presentValues([field('__proto__', 'jsonb')], JSON.parse('{"__proto__":"{\\"polluted\\":true}"}'));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect((out as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: true });
  });
});
