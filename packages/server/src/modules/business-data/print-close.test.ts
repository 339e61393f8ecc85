import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { registerPerson } from '../../../test/helpers.ts';
import { nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Print and Close, the data actions that change nothing (domain.md §4): Print answers the record it prints and needs
// it to exist and be readable; Close answers the record as it is.

let t: TestApp, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

describe('Print and Close', () => {
  it('answer the record without changing it; Print needs an existing, readable record', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([{ type: 'textBox', code: 'Title' }]));
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: '待打印' } });
    const before = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });

    const printed = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Print', objectId: saved.objectId, values: { Title: '改不了' } });
    expect(printed).toMatchObject({ objectId: saved.objectId, status: 0, name: '待打印' });
    const closed = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Close', objectId: saved.objectId });
    expect(closed.objectId).toBe(saved.objectId);
    expect(await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Close' })).toMatchObject({ objectId: null });
    const after = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(after.values).toEqual(before.values);
    expect(after.system.ModifiedTime).toBe(before.system.ModifiedTime);

    expect((await a.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Print' })).body.errorCode).toBe(777);
    const missing = await a.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Print', objectId: '0192aaaa-0000-7000-8000-000000000009' });
    expect(missing.body.errorCode).toBe(250001);
    // Another engine's administrator finds neither the form nor the record.
    const stranger = nodeClient(t.app, await registerPerson(t.app));
    const foreign = await stranger.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Print', objectId: saved.objectId });
    expect(foreign.body.successful).toBe(false);
  });
});
