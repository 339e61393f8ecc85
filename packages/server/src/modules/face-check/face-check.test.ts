import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, createApp, grant, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { TENCENT, facePicture, startTencentFaceFake, type TencentFaceFake } from '../../../test/tencent-face-fake.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';
import { tc3Authorization } from './tc3-signature.ts';

// test-databases: both — the check rows' numeric scores, the uuid file columns and the lock on a presented check.
// The face check against a fake Tencent Cloud face API that checks TC3-HMAC-SHA256 signatures: a member's photo is
// compared with their stored one, a pass lets the record be saved with them as the value and shows the score, a fail
// or a forged value is refused, and the provider's and the caller's mistakes come back as catalogue errors.

describe('face check', () => {
  let t: TestApp, admin: Person, a: OrgClient, appCode: string, fake: TencentFaceFake;
  let member: InvitedMember, m: OrgClient, own: string, anyone: string, adminId: string;

  const install = (settings: Record<string, unknown> = {}, secretKey: string = TENCENT.secretKey) =>
    putPluginInstance(engineDb(t.database.db as Db, admin.engineCode), {
      templateCode: 'face',
      status: 'installed',
      settings: { endpoint: fake.url, region: TENCENT.region, secretId: TENCENT.secretId, ...settings },
      secrets: { secretKey },
    });
  const upload = async (person: { token: string; engineCode: string }, bytes: Buffer, fileName = 'face.png') => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/v1/file/upload',
      query: { scene: 'attachment', fileName },
      headers: { authorization: `Bearer ${person.token}`, enginecode: person.engineCode, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    expect(answer.json().successful).toBe(true);
    return answer.json().data.fileId as string;
  };
  const setPhoto = async (userId: string, bytes: Buffer) => a.post('/v1/facecheck/photo/set', { userId, fileId: await upload(admin, bytes) });
  const compare = async (client: OrgClient, person: { token: string; engineCode: string }, bytes: Buffer, extra: Record<string, unknown> = {}, schemaCode = own) =>
    client.raw('POST', '/v1/facecheck/compare', { schemaCode, controlCode: 'Face', fileId: await upload(person, bytes), ...extra });

  beforeAll(async () => {
    ({ t, admin, a, appCode } = await adminWithApp());
    fake = await startTencentFaceFake();
    member = await addInvitedMember(t, admin, { name: '李明' });
    m = nodeClient(t.app, member);
    await grant(a, appCode, member.userId, 'access');
    own = (await createForm(a, appCode, { displayName: '签到' })).code as string;
    await publish(a, own, definition([{ type: 'textBox', code: 'Title' }, { type: 'faceRecognition', code: 'Face', options: { displayName: '刷脸签到' } }]));
    anyone = (await createForm(a, appCode, { displayName: '访客核验' })).code as string;
    await publish(a, anyone, definition([{ type: 'faceRecognition', code: 'Face', options: { displayName: '核验', match: 'anyUser' } }]));
    adminId = (await a.post('/v1/form/loaddata', { schemaCode: own })).system.CreatedBy as string;
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  it('is refused with 430001 while the face plugin is not installed', async () => {
    const answer = await compare(m, member, facePicture('li'));
    expect(answer.body).toMatchObject({ successful: false, errorCode: 430001 });
    expect(answer.body.errorMessage).toContain('人脸识别');
    expect((await m.get('/v1/facecheck/status')).installed).toBe(false);
  });

  it('says so when the person has no stored photo', async () => {
    await install();
    const answer = await compare(m, member, facePicture('li'));
    expect(answer.body).toMatchObject({ successful: false, errorCode: 470001 });
    expect(answer.body.errorMessage).toContain('李明');
    expect(fake.calls).toHaveLength(0);
  });

  it('passes a photo of the same person, saves the record with them and shows the score', async () => {
    await setPhoto(member.userId, facePicture('li', 0));
    expect(await m.get('/v1/facecheck/status')).toEqual({ installed: true, hasPhoto: true });
    const checked = await compare(m, member, facePicture('li', 30));
    expect(checked.body.data).toMatchObject({ matched: true, score: 88, threshold: 80, userId: member.userId, userName: '李明' });
    expect(fake.calls.at(-1)).toEqual({ error: '', score: 88 });
    const saved = await m.post('/v1/form/action/execute', { schemaCode: own, actionCode: 'Submit', values: { Title: '早班', Face: checked.body.data.checkId } });
    const loaded = await m.post('/v1/form/loaddata', { schemaCode: own, objectId: saved.objectId });
    expect(loaded.values.Face).toBe(member.userId);
    const shown = await m.get('/v1/facecheck/record', { schemaCode: own, objectId: saved.objectId, controlCode: 'Face' });
    expect(shown.check).toMatchObject({ userId: member.userId, userName: '李明', score: 88, matched: true });
    // Saved again unchanged, the value stays; the same check cannot fill a second record.
    await m.post('/v1/form/action/execute', { schemaCode: own, actionCode: 'Save', objectId: saved.objectId, values: { Title: '早班2', Face: member.userId } });
    const again = await m.raw('POST', '/v1/form/action/execute', { schemaCode: own, actionCode: 'Submit', values: { Face: checked.body.data.checkId } });
    expect(again.body).toMatchObject({ successful: false, errorCode: 470008 });
    // A copy does not carry the face over.
    const copy = await m.post('/v1/form/action/execute', { schemaCode: own, actionCode: 'Copy', objectId: saved.objectId });
    expect((await m.post('/v1/form/loaddata', { schemaCode: own, objectId: copy.objectId })).values.Face ?? null).toBeNull();
  });

  it('fails another person’s face and below the threshold, and such a check cannot fill the record', async () => {
    const other = await compare(m, member, facePicture('wang'));
    expect(other.body.data).toMatchObject({ matched: false, score: 12 });
    const refused = await m.raw('POST', '/v1/form/action/execute', { schemaCode: own, actionCode: 'Submit', values: { Face: other.body.data.checkId } });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 470008 });
    expect(refused.body.errorMessage).toContain('刷脸签到');
    await install({ threshold: 90 });
    const strict = await compare(m, member, facePicture('li', 50));
    expect(strict.body.data).toMatchObject({ matched: false, score: 88, threshold: 90 });
    await install();
  });

  it('refuses a forged value: a user id, an unknown id, or someone else’s check', async () => {
    for (const Face of [member.userId, 'not-a-check']) {
      const answer = await m.raw('POST', '/v1/form/action/execute', { schemaCode: own, actionCode: 'Submit', values: { Face } });
      expect(answer.body).toMatchObject({ successful: false, errorCode: 470008 });
    }
    await setPhoto(adminId, facePicture('boss'));
    const admins = await compare(a, admin, facePicture('boss', 10));
    expect(admins.body.data.matched).toBe(true);
    const borrowed = await m.raw('POST', '/v1/form/action/execute', { schemaCode: own, actionCode: 'Submit', values: { Face: admins.body.data.checkId } });
    expect(borrowed.body).toMatchObject({ successful: false, errorCode: 470008 });
    // Through the open door of another engine: its own form cannot take this engine's check.
    const stranger = await registerPerson(t.app);
    const s = nodeClient(t.app, stranger);
    const theirs = (await createForm(s, (await createApp(s)).code)).code as string;
    await publish(s, theirs, definition([{ type: 'faceRecognition', code: 'Face' }]));
    const foreign = await s.raw('POST', '/v1/form/action/execute', { schemaCode: theirs, actionCode: 'Submit', values: { Face: admins.body.data.checkId } });
    expect(foreign.body).toMatchObject({ successful: false, errorCode: 470008 });
  });

  it('compares only the caller under currentUser, and the person chosen under anyUser', async () => {
    const notYours = await compare(m, member, facePicture('li'), { userId: adminId });
    expect(notYours.body).toMatchObject({ successful: false, errorCode: 470012 });
    const chosen = await compare(a, admin, facePicture('li', 20), { userId: member.userId }, anyone);
    expect(chosen.body.data).toMatchObject({ matched: true, userId: member.userId });
    const saved = await a.post('/v1/form/action/execute', { schemaCode: anyone, actionCode: 'Submit', values: { Face: chosen.body.data.checkId } });
    expect((await a.post('/v1/form/loaddata', { schemaCode: anyone, objectId: saved.objectId })).values.Face).toBe(member.userId);
    // Under anyUser the person must be chosen.
    const unchosen = await compare(a, admin, facePicture('boss', 3), {}, anyone);
    expect(unchosen.body).toMatchObject({ successful: false, errorCode: 470010 });
  });

  it('refuses what is not a picture, a picture too large, a file not the caller’s, and a photo without a face', async () => {
    const text = await compare(m, member, Buffer.from('just text, not a picture'));
    expect(text.body).toMatchObject({ successful: false, errorCode: 470002 });
    const big = Buffer.concat([facePicture('li'), Buffer.alloc(4 * 1024 * 1024)]);
    expect((await compare(m, member, big)).body).toMatchObject({ successful: false, errorCode: 470003 });
    const adminsFile = await upload(admin, facePicture('li'));
    const taken = await m.raw('POST', '/v1/facecheck/compare', { schemaCode: own, controlCode: 'Face', fileId: adminsFile });
    expect(taken.body).toMatchObject({ successful: false, errorCode: 260001 });
    expect((await compare(m, member, facePicture(null))).body).toMatchObject({ successful: false, errorCode: 470004 });
    const bad = await m.raw('POST', '/v1/facecheck/compare', { schemaCode: own, controlCode: 'Title', fileId: adminsFile });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 470009 });
    const empty = await m.raw('POST', '/v1/facecheck/compare', { schemaCode: own, controlCode: 'Face' });
    expect(empty.body.successful).toBe(false);
    expect(empty.status).toBeLessThan(500);
    // A photo that is not a picture is not stored as a reference either.
    const notPhoto = await a.raw('POST', '/v1/facecheck/photo/set', { userId: member.userId, fileId: await upload(admin, Buffer.from('text')) });
    expect(notPhoto.body).toMatchObject({ successful: false, errorCode: 470002 });
  });

  it('signs as Tencent Cloud checks: a wrong key or an old timestamp is refused by the provider', async () => {
    await install({}, 'a-wrong-secret-key');
    const wrongKey = await compare(m, member, facePicture('li', 5));
    expect(wrongKey.body).toMatchObject({ successful: false, errorCode: 470005 });
    expect(wrongKey.body.errorMessage).toContain('AuthFailure.SignatureFailure');
    await install({ secretId: 'AKIDunknown' });
    expect((await compare(m, member, facePicture('li', 5))).body.errorMessage).toContain('AuthFailure.SecretIdNotFound');
    await install();
    fake.skewSeconds = 600;
    expect((await compare(m, member, facePicture('li', 5))).body.errorMessage).toContain('AuthFailure.SignatureExpire');
    fake.skewSeconds = 0;
    // The fake itself: a body changed after signing is refused; the same request unchanged passes.
    const body = JSON.stringify({ ImageA: facePicture('li').toString('base64'), ImageB: facePicture('li', 9).toString('base64') });
    const host = new URL(fake.url).host;
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'x-tc-action': 'CompareFace',
      'x-tc-version': '2020-03-03',
      'x-tc-timestamp': String(timestamp),
      'x-tc-region': TENCENT.region,
      authorization: tc3Authorization({ ...TENCENT, service: 'iai', host, contentType: 'application/json; charset=utf-8', body, timestamp }),
    };
    const good = await (await fetch(fake.url, { method: 'POST', headers, body })).json();
    expect(good.Response).toMatchObject({ Score: 88 });
    const tampered = await (await fetch(fake.url, { method: 'POST', headers, body: body.replace('"ImageB":"', '"ImageB":"A') })).json();
    expect(tampered.Response.Error.Code).toBe('AuthFailure.SignatureFailure');
  });

  it('answers the same check through POST /v2/plugin/invoke (method compare)', async () => {
    const fileId = await upload(member, facePicture('li', 60));
    const invoked = await m.post('/v2/plugin/invoke', { pluginCode: 'face', method: 'compare', params: { schemaCode: own, controlCode: 'Face', fileId } });
    expect(invoked.result).toMatchObject({ matched: true, score: 88, userId: member.userId });
    const bad = await m.raw('POST', '/v2/plugin/invoke', { pluginCode: 'face', method: 'compare', params: { schemaCode: own, controlCode: 'Face', fileId: 'not-a-file' } });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 430015 });
  });

  it('keeps reference photos to administrators', async () => {
    expect((await m.raw('GET', '/v1/facecheck/photo', { userId: member.userId })).body.successful).toBe(false);
    expect(await a.get('/v1/facecheck/photo', { userId: member.userId })).toMatchObject({ userId: member.userId, hasPhoto: true, fileName: 'face.png' });
    const image = await t.app.inject({ method: 'GET', url: `/v1/facecheck/photo/image?userId=${member.userId}`, headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode } });
    expect(image.rawPayload.equals(facePicture('li', 0))).toBe(true);
    expect(await a.post('/v1/facecheck/photo/remove', { userId: member.userId })).toMatchObject({ hasPhoto: false });
    expect((await compare(m, member, facePicture('li'))).body).toMatchObject({ successful: false, errorCode: 470001 });
  });
});
