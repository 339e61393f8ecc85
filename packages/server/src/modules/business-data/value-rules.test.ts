import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';

// The value rules the runtime and the server share (packages/shared/src/controls/check-value.ts): text modes
// (domain.md §5) and number / date ranges, refused on the server with a 777 naming the field, nothing saved.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const CONTACT = definition([
  { type: 'textBox', code: 'Mail', options: { textMode: 'Email' } },
  { type: 'textBox', code: 'Phone', options: { textMode: 'Telephone' } },
  { type: 'textBox', code: 'IdNo', options: { textMode: 'IdCard' } },
  { type: 'number', code: 'Age', options: { rangeRule: { min: 0, max: 150 } } },
  { type: 'dateTime', code: 'Visit', options: { rangeRule: { min: '2026-01-01T00:00:00Z', max: '2026-12-31T23:59:59Z' } } },
]);

describe('text modes and ranges on save', () => {
  it('refuses each bad value with its field named and saves nothing; accepts good ones', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, CONTACT);
    const bad = { Mail: 'x@', Phone: '123', IdNo: '110105194912310021', Age: 151, Visit: '2027-01-02T00:00:00Z' };
    const answer = await a.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: bad });
    expect(answer.body.errorCode).toBe(777);
    const issues = (answer.body.detail as { issues: { path: string; message: string }[] }).issues;
    expect(Object.fromEntries(issues.map((issue) => [issue.path, issue.message]))).toEqual({
      // Each names its control by display name (docs/decisions/0028); these controls keep their type's default name.
      'values.Mail': '单行文本：请输入正确的邮箱地址',
      'values.Phone': '单行文本：请输入正确的电话号码',
      'values.IdNo': '单行文本：请输入正确的身份证号',
      'values.Age': '数值：不能大于150',
      'values.Visit': '日期：不能晚于2026-12-31',
    });
    const rows = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)}`);
    expect(rows[0].n).toBe(0);

    const good = { Mail: 'li@example.cn', Phone: '010-12345678', IdNo: '11010519491231002X', Age: 30, Visit: '2026-06-01T08:00:00Z' };
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: good });
    const read = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(read.values).toMatchObject({ ...good, Visit: '2026-06-01T08:00:00.000Z' });
  });

  it('the data log does not count an empty value replaced by another empty value as a change', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([{ type: 'textBox', code: 'Note' }, { type: 'number', code: 'Qty' }, { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['甲', '乙'] } }]));
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Qty: 1 } });
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: { Note: '', Qty: 2, Tags: [] } });
    const log = await a.post('/v1/form/datalog/list', { schemaCode: code, objectId: saved.objectId });
    expect(log.list[0].changes).toEqual([{ code: 'Qty', from: 1, to: 2 }]);
  });
});
