import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// docs/decisions/0115: enableDataAcl decides the rule of a form without permission groups; pcVisible / mobileVisible
// hide a form on a device; an administrator sets the honoured feature switches, which take effect at once.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let ann: OrgClient, ben: OrgClient;
const controls = [{ type: 'textBox', code: 'Title', options: { displayName: '标题' } }];

const titles = async (c: OrgClient, schemaCode = code) =>
  ((await c.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 50 })).list as { Title: string }[]).map((r) => r.Title).sort();
const submit = (c: OrgClient, title: string) => c.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: title } });

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition(controls));
  const members = [await addInvitedMember(t, admin, { name: '安' }), await addInvitedMember(t, admin, { name: '本' })];
  for (const m of members) await grant(a, appCode, m.userId, 'access');
  [ann, ben] = members.map((m) => nodeClient(t.app, m));
  await submit(ann, '安的数据');
  await submit(ben, '本的数据');
});
afterAll(() => t.close());

describe('enableDataAcl', () => {
  it('off: whoever opens the form sees every record', async () => {
    expect(await titles(ann)).toEqual(['安的数据', '本的数据']);
  });

  it('on: each person sees their own records, administrators every record', async () => {
    await publish(a, code, definition(controls, { enableDataAcl: true }));
    expect(await titles(ann)).toEqual(['安的数据']);
    expect(await titles(ben)).toEqual(['本的数据']);
    expect(await titles(a)).toEqual(['安的数据', '本的数据']);
  });
});

describe('pcVisible and mobileVisible', () => {
  it('name the published forms switched off on each device', async () => {
    const pcOff = (await createForm(a, appCode, { displayName: '仅手机' })).code as string;
    const phoneOff = (await createForm(a, appCode, { displayName: '仅电脑' })).code as string;
    await publish(a, pcOff, definition(controls, { displayName: '仅手机', pcVisible: false }));
    await publish(a, phoneOff, definition(controls, { displayName: '仅电脑', mobileVisible: false }));
    expect((await ann.get('/v1/form/hidden', { device: 'pc' })).codes).toEqual([pcOff]);
    expect((await ann.get('/v1/form/hidden', { device: 'mobile' })).codes).toEqual([phoneOff]);
  });
});

describe('feature switches', () => {
  const value = async (c: OrgClient, name: string) => (await c.post('/v1/switch/batch', { names: [name] })).switches[0].value;

  it('an administrator turns a switch off and on, and its feature follows', async () => {
    expect(await a.post('/v1/switch/set', { name: 'associatedOrganization', value: '0' })).toEqual({ name: 'associatedOrganization', value: '0' });
    expect(await value(ann, 'associatedOrganization')).toBe('0');
    expect((await a.raw('POST', '/v1/org/associated/code/create', {})).body).toMatchObject({ errorCode: 100403 });
    await a.post('/v1/switch/set', { name: 'associatedOrganization', value: '1' });
    expect(await value(ann, 'associatedOrganization')).toBe('1');
    expect((await a.raw('POST', '/v1/org/associated/code/create', {})).body).toMatchObject({ successful: true });
  });

  it('only administrators set switches, and only the honoured ones', async () => {
    expect((await ann.raw('POST', '/v1/switch/set', { name: 'kanbanView', value: '0' })).status).toBe(403);
    expect((await a.raw('POST', '/v1/switch/set', { name: 'ai', value: '1' })).body).toMatchObject({ errorCode: 777 });
    expect((await a.raw('POST', '/v1/switch/set', { name: 'kanbanView', value: 'on' })).body).toMatchObject({ errorCode: 777 });
    expect(await value(a, 'kanbanView')).toBe('1');
  });
});
