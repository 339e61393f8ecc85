import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from './helpers.ts';
import type { OrgClient, Person } from './node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from './form-helpers.ts';
import { companyIdOf } from './org-helpers.ts';
import { localeOfHeader } from '../src/lib/locale.ts';

// Validation errors speak the caller's language (docs/decisions/0028) on PGlite and PostgreSQL: zh-CN unless the
// request's Accept-Language puts English first; the catalogue code stays; a form field is named by its display name.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, schemaCode: string;
beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  schemaCode = (await createForm(a, appCode)).code as string;
  await publish(a, schemaCode, definition([
    { type: 'textBox', code: 'Title', options: { displayName: '标题', required: true } },
    { type: 'number', code: 'Amount', options: { displayName: '金额', rangeRule: { max: 100 } } },
  ]));
});
afterAll(() => t.close());

const HAN = /\p{Script=Han}/u;
const ZOD_ENGLISH = /Invalid input|expected|received|Too big|Too small|Unrecognized/;
const asUser = (language?: string) => ({ token: admin.token, engineCode: admin.engineCode, headers: (language ? { 'accept-language': language } : {}) as Record<string, string> });
const messages = (body: { detail?: { issues?: { path: string; message: string }[] } }) => Object.fromEntries((body.detail?.issues ?? []).map((i) => [i.path, i.message]));

describe('route validation', () => {
  it('answers in Chinese by default and in English for an English caller, with the same code', async () => {
    const parentId = await companyIdOf(t, admin.engineCode);
    const bad = { parentId, name: '', sortKey: 'first', color: 'red' };
    const zh = await call(t.app, 'POST', '/v1/org/department/create', { ...asUser(), body: bad });
    expect(zh.body).toMatchObject({ successful: false, errorCode: 777, errorMessage: '参数校验失败', errorTitle: '操作失败' });
    expect(messages(zh.body)).toEqual({ name: '请输入部门名称', sortKey: '须为数字', body: '不支持的字段：color' });

    const en = await call(t.app, 'POST', '/v1/org/department/create', { ...asUser('en-US,en;q=0.9,zh-CN;q=0.5'), body: bad });
    expect(en.body).toMatchObject({ successful: false, errorCode: 777, errorMessage: 'Parameter verification failed', errorTitle: 'Operation failed' });
    expect(messages(en.body)).toEqual({ name: 'Enter the department name', sortKey: 'Must be a number', body: 'Unknown field: color' });
    expect(JSON.stringify(zh.body)).not.toMatch(ZOD_ENGLISH);
  });

  it('a query that is too long, and a body that is not JSON, in both languages', async () => {
    const keyword = 'x'.repeat(51);
    const zh = await call(t.app, 'POST', '/v1/org/search', { ...asUser('zh-CN'), body: { keyword } });
    expect(messages(zh.body)).toEqual({ keyword: '关键字最多50个字符' });
    const en = await call(t.app, 'POST', '/v1/org/search', { ...asUser('en'), body: { keyword } });
    expect(messages(en.body)).toEqual({ keyword: 'The keyword has at most 50 characters' });
    const notJson = await t.app.inject({ method: 'POST', url: '/v1/org/department/create', headers: { 'content-type': 'application/json', 'accept-language': 'en-US' }, payload: '{"name":' });
    expect(notJson.json()).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'body', message: 'The request body is not valid JSON' }] } });
  });

  it('the edge speaks both languages too', async () => {
    const en = await call(t.app, 'POST', '/v1/org/search', { ...asUser('en-GB'), body: { keyword: 'a\u0000' } });
    expect(messages(en.body)).toEqual({ keyword: 'Must not contain the NUL character (U+0000)' });
  });

  it('a business error keeps its code and reads the catalogue in English', async () => {
    const zh = await call(t.app, 'POST', '/v1/form/loaddata', { ...asUser(), body: { schemaCode: 'NoSuchForm' } });
    const en = await call(t.app, 'POST', '/v1/form/loaddata', { ...asUser('en-US'), body: { schemaCode: 'NoSuchForm' } });
    expect(en.body.errorCode).toBe(zh.body.errorCode);
    expect(HAN.test(zh.body.errorMessage)).toBe(true);
    expect(HAN.test(en.body.errorMessage)).toBe(false);
  });
});

describe('record field validation', () => {
  it('names the field by its display name, in the caller language', async () => {
    const body = { schemaCode, actionCode: 'Submit', values: { Amount: 'many', Title: '' } };
    const zh = await call(t.app, 'POST', '/v1/form/action/execute', { ...asUser(), body });
    expect(zh.body.errorCode).toBe(777);
    expect(messages(zh.body)).toEqual({ 'values.Amount': '金额：须为数字', 'values.Title': '标题：必填' });
    const en = await call(t.app, 'POST', '/v1/form/action/execute', { ...asUser('en-US'), body });
    expect(messages(en.body)).toEqual({ 'values.Amount': '金额: Must be a number', 'values.Title': '标题: Required' });
    const tooBig = await call(t.app, 'POST', '/v1/form/action/execute', { ...asUser('en-US'), body: { schemaCode, actionCode: 'Submit', values: { Amount: 101, Title: 'x' } } });
    expect(messages(tooBig.body)).toEqual({ 'values.Amount': '金额: Must not be greater than 100' });
    expect(JSON.stringify(zh.body)).not.toMatch(ZOD_ENGLISH);
  });
});

describe('Accept-Language', () => {
  it('takes the first of Chinese or English by weight; Chinese when neither is named', () => {
    expect(localeOfHeader(undefined)).toBe('zh-CN');
    expect(localeOfHeader('fr-FR,de;q=0.8')).toBe('zh-CN');
    expect(localeOfHeader('en-US')).toBe('en-US');
    expect(localeOfHeader('zh-CN,en;q=0.9')).toBe('zh-CN');
    expect(localeOfHeader('zh;q=0.5,en;q=0.8')).toBe('en-US');
    expect(localeOfHeader('fr,en-GB;q=0.7,zh-TW;q=0.6')).toBe('en-US');
  });
});
