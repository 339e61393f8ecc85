import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Formula controls are computed by the server on every save (docs/decisions/0012): what the client sends for them is
// ignored, sub-table formula columns are computed per row, and a change of a field they use recomputes them even when
// the sub-table itself is not sent.

let t: TestApp, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const ORDER = definition([
  { type: 'number', code: 'Price', options: { decimalPlaces: 2 } },
  { type: 'gridView', code: 'Items', controls: [{ type: 'number', code: 'Qty' }, { type: 'formula', code: 'Amount', options: { expression: '{Items.Qty}*{Price}', decimalPlaces: 2 } }] },
  { type: 'formula', code: 'Total', options: { expression: 'SUM({Items.Amount})', decimalPlaces: 2 } },
  { type: 'formula', code: 'Capital', options: { expression: 'UPPERMONEY({Total})', bindType: 'string' } },
]);

describe('formulas on save', () => {
  it('stores the server result, per row and over rows, and recomputes when an input changes', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, ORDER);
    const saved = await a.post('/v1/form/action/execute', {
      schemaCode: code, actionCode: 'Submit',
      values: { Price: 12.5, Total: 1, Capital: '伪造' },
      children: { Items: [{ Qty: 2, Amount: 999 }, { Qty: 3 }] },
    });
    const read = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(read.children.Items.map((row: { Amount: number }) => row.Amount)).toEqual([25, 37.5]);
    expect(read.values).toMatchObject({ Total: 62.5, Capital: '陆拾贰元伍角' });

    // Only the price is sent: the rows' amounts and the total follow.
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: { Price: 10 } });
    const again = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(again.children.Items.map((row: { Qty: number; Amount: number }) => [row.Qty, row.Amount])).toEqual([[2, 20], [3, 30]]);
    expect(again.children.Items[0].ObjectId).toBe(read.children.Items[0].ObjectId);
    expect(again.values).toMatchObject({ Total: 50, Capital: '伍拾元整' });
    const log = await a.post('/v1/form/datalog/list', { schemaCode: code, objectId: saved.objectId });
    expect(log.list[0].changes.map((c: { code: string }) => c.code).sort()).toEqual(['Capital', 'Items', 'Price', 'Total']);
  });

  it('a required field its hide condition hides is not required, on the server as in the runtime', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([
      { type: 'dropDown', code: 'Kind', options: { defaultItems: ['个人', '企业'] } },
      { type: 'textBox', code: 'Company', options: { required: true, hideCondition: '{Kind}!="企业"' } },
    ]));
    const personal = await a.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Kind: '个人' } });
    expect(personal.body.successful).toBe(true);
    const company = await a.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Kind: '企业' } });
    expect(company.body.errorCode).toBe(777);
    expect(company.body.detail.issues.map((i: { path: string }) => i.path)).toEqual(['values.Company']);
  });

  it('a form whose formulas refer to each other in a cycle is not published', async () => {
    const code = (await createForm(a, appCode)).code as string;
    const cyclic = definition([
      { type: 'number', code: 'Base' },
      { type: 'formula', code: 'A', options: { expression: '{B}+{Base}' } },
      { type: 'formula', code: 'B', options: { expression: '{A}*2' } },
    ]);
    const loaded = await a.post('/v1/formdesign/load', { schemaCode: code });
    const saved = await a.post('/v1/formdesign/save', { schemaCode: code, baseVersion: loaded.draft.version, definition: cyclic });
    const refused = await a.raw('POST', '/v1/formdesign/publish', { schemaCode: code, version: saved.version, confirm: [] });
    expect(refused.body.errorCode).toBe(240011);
    expect(refused.body.detail.cycles).toEqual([['A', 'B']]);
    expect((await a.raw('GET', `/v1/schema?schemaCode=${code}`)).body.errorCode).toBe(240004);
  });
});
