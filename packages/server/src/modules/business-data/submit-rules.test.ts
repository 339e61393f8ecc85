import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Submit rules checked by the server on Submit, default-value formulas in loaddata, and GETUNITNAME answered with
// names on the server (docs/decisions/0016).

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const exec = (body: Record<string, unknown>) => a.raw('POST', '/v1/form/action/execute', body);

describe('submit rules', () => {
  it('read rollups as stored: a rule over a sub-table rollup sees the rows of this save', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition(
      [
        { type: 'gridView', code: 'Lines', controls: [{ type: 'number', code: 'Amount' }] },
        { type: 'rollup', code: 'Total', options: { rollupType: 'sum', sourceCode: 'Lines', sourceField: 'Amount' } },
      ],
      { submitRules: [{ condition: '{Total} > 100', message: '合计不能超过100' }] },
    ));
    const refused = await exec({ schemaCode: code, actionCode: 'Submit', values: { Total: 1 }, children: { Lines: [{ Amount: 60 }, { Amount: 50 }] } });
    expect([refused.body.errorCode, refused.body.errorMessage]).toEqual([250070, '合计不能超过100']);
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: {}, children: { Lines: [{ Amount: 60 }, { Amount: 40 }] } });
    expect(saved.status).toBe(1);
  });

  it('refuse Submit while a rule holds, over the values the server computed; Save is not checked', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition(
      [
        { type: 'number', code: 'Qty' },
        { type: 'number', code: 'Price' },
        { type: 'formula', code: 'Total', options: { expression: '{Qty}*{Price}' } },
        { type: 'textBox', code: 'Reason' },
      ],
      { submitRules: [
        { condition: '{Total} > 1000 && ISNULL({Reason})', message: '金额超过1000元须填写原因' },
        { condition: '{Qty} < 0', action: 'hideButton' },
      ] },
    ));
    // The client claims a small total; the server computes 1200 and refuses.
    const refused = await exec({ schemaCode: code, actionCode: 'Submit', values: { Qty: 12, Price: 100, Total: 1 } });
    expect(refused.body.errorCode).toBe(250070);
    expect(refused.body.errorMessage).toBe('金额超过1000元须填写原因');
    expect(refused.body.detail).toEqual({ index: 0, action: 'error' });
    const hidden = await exec({ schemaCode: code, actionCode: 'SubmitAndAdd', values: { Qty: -1, Price: 1 } });
    expect(hidden.body.errorCode).toBe(250070);
    expect(hidden.body.detail.action).toBe('hideButton');
    expect((await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10 })).total).toBe(0);

    const draft = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Qty: 12, Price: 100 } });
    expect(draft.status).toBe(0);
    expect((await exec({ schemaCode: code, actionCode: 'Submit', objectId: draft.objectId, values: {} })).body.errorCode).toBe(250070);
    const ok = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', objectId: draft.objectId, values: { Reason: '大客户' } });
    expect(ok.status).toBe(1);
  });

  it('are part of the form attributes: a rule without a condition is refused at save time (777)', async () => {
    const code = (await createForm(a, appCode)).code as string;
    const loaded = await a.post('/v1/formdesign/load', { schemaCode: code });
    const r = await a.raw('POST', '/v1/formdesign/save', { schemaCode: code, baseVersion: loaded.draft.version, definition: definition([], { submitRules: [{ condition: ' ', message: 'x' }] }) });
    expect(r.body.errorCode).toBe(777);
  });
});

describe('default-value formulas and GETUNITNAME', () => {
  it('computes defaults of a new record over the other defaults, with names of people and departments', async () => {
    const member = await addMember(t, admin, { name: '王小明' });
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([
      { type: 'user', code: 'Applicant', options: { defaultValue: 'currentUser' } },
      { type: 'textBox', code: 'Title', options: { defaultFormula: 'GETUNITNAME({Applicant}) & "的申请"' } },
      { type: 'dateTime', code: 'Due', options: { defaultFormula: 'ADDDAY(TODAY(), 7)' } },
      { type: 'number', code: 'Days', options: { defaultFormula: 'DAYS({Due}, TODAY())' } },
      { type: 'user', code: 'Handler' },
      { type: 'formula', code: 'HandlerName', options: { expression: 'GETUNITNAME({Handler})', bindType: 'string' } },
    ]));
    const fresh = await a.post('/v1/form/loaddata', { schemaCode: code });
    const adminName = (await a.post('/v1/org/unit/batch', { ids: [fresh.values.Applicant] })).list[0].name;
    expect(fresh.values.Title).toBe(`${adminName}的申请`);
    const shanghaiDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
    expect(shanghaiDay(Date.parse(fresh.values.Due))).toBe(shanghaiDay(Date.now() + 7 * 86_400_000));
    expect(fresh.values.Days).toBe(7);
    // GETUNITNAME in a formula control: the server stores the name, not the id the client might send.
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Handler: member.userId, HandlerName: member.userId } });
    expect((await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId })).values.HandlerName).toBe('王小明');
  });
});
