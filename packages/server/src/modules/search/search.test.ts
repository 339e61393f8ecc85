import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, createNode, FunctionNodeType, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { sql } from 'kysely';
import { adminWithApp, createForm, definition, engineSql, indexesOf, publish, tableRef } from '../../../test/form-helpers.ts';
import { SEARCH_PROBE_CAP } from './record-search.sql.ts';

// test-databases: both — trigram searches with escaped wildcards and scope SQL (docs/testing.md "Runs on both databases").

// Full-text search (issue 20, docs/decisions/0040) through the API on PGlite and PostgreSQL: Chinese words in titles,
// text, option labels and sequence numbers; only the forms a member opens, only the records in their data scope, never
// the text of a field hidden from them; nodes by name; refused input as catalogue errors.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string, hiddenAppCode: string;
let alice: Person & { userId: string; c: OrgClient };
const ids: Record<string, string> = {};

type Hit = { objectId: string; title: string; seqNo: string | null; fieldCode: string; fieldName: string; snippet: { text: string; highlights: { start: number; length: number }[] } };
type Group = { appCode: string; schemaCode: string; formName: string; hits: Hit[] };

const search = (c: OrgClient, query: Record<string, string>) => c.raw('GET', '/v1/toolkit/fulltext/search', query);
async function hits(c: OrgClient, keyword: string, extra: Record<string, string> = {}): Promise<Hit[]> {
  const res = await search(c, { keyword, ...extra });
  expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
  return (res.body.data.list as Group[]).flatMap((g) => g.hits);
}
const titlesOf = async (c: OrgClient, keyword: string) => (await hits(c, keyword)).map((h) => h.title).sort();
const marked = (hit: Hit) => hit.snippet.highlights.map((h) => hit.snippet.text.slice(h.start, h.start + h.length));

async function submit(c: OrgClient, key: string, values: Record<string, unknown>) {
  const res = await c.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values });
  expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
  ids[key] = res.body.data.objectId;
}

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode, { displayName: '客户跟进' })).code as string;
  await publish(a, code, definition([
    { type: 'seqNo', code: 'SeqNo', options: { seqNoStructure: [{ type: 'fixedValue', value: 'GJ' }, { type: 'increment', digits: 4 }] } },
    { type: 'textBox', code: 'Title', options: { displayName: '主题', searchable: true } },
    // Before Notes on purpose: where both hold a keyword, whoever sees Secret is shown Secret's text.
    { type: 'textBox', code: 'Secret', options: { displayName: '内部底价', searchable: true } },
    { type: 'textArea', code: 'Notes', options: { displayName: '跟进记录', searchable: true } },
    { type: 'radioList', code: 'Level', options: { displayName: '紧急程度', defaultItems: ['紧急处理', '普通'], searchable: true } },
    { type: 'checkboxList', code: 'Tags', options: { displayName: '客户标签', defaultItems: ['重点客户', '一般'] } },
  ], { nameSchema: '{Title}' }));
  const member = await addMember(t, admin, { name: '艾丽' });
  await grant(a, appCode, member.userId, 'access');
  alice = { ...member, c: nodeClient(t.app, member) };
  // A second app the member is not given: its nodes and records are not theirs to find.
  hiddenAppCode = (await createApp(a, { displayName: '财务台账' })).code;
  await createNode(a, hiddenAppCode, FunctionNodeType.FormModule, { displayName: '客户台账' });

  await submit(a, 'shanghai', { Title: '上海浦东客户拜访', Secret: '续签合同底价八折', Notes: '讨论了年度采购计划，对方希望\n下月续签合同', Level: '紧急处理' });
  await submit(alice.c, 'beijing', { Title: '北京客户回访', Secret: '续签合同须保密', Notes: '客户提出下月续签合同', Level: '普通', Tags: ['重点客户'] });
  await submit(a, 'plan', { Title: '采购计划评审', Notes: '完成率100%' });
  // The member sees only their own records and not Secret.
  const group = await a.raw('POST', '/v1/form/permission/group/save', {
    schemaCode: code,
    group: { name: '业务员', members: { users: [alice.userId] }, actions: ['view', 'create', 'edit'], viewScope: 'own', editScope: 'own', fieldRights: { Secret: 'hidden' } },
  });
  expect(group.body.successful, JSON.stringify(group.body)).toBe(true);
});
afterAll(() => t.close());

describe('finding records', () => {
  it('finds a Chinese word inside a long text, naming the field and marking the word in a snippet', async () => {
    const found = await hits(a, '年度采购');
    expect(found.map((h) => h.objectId)).toEqual([ids.shanghai]);
    expect(found[0]).toMatchObject({ title: '上海浦东客户拜访', fieldCode: 'Notes', fieldName: '跟进记录' });
    expect(marked(found[0]!)).toEqual(['年度采购']);
    expect(found[0]!.snippet.text).not.toMatch(/\n/);
    const res = await search(a, { keyword: '年度采购' });
    expect(res.body.data.list[0]).toMatchObject({ appCode, schemaCode: code, formName: '客户跟进' });
  });

  it('ranks title matches before newer records that hold the word elsewhere', async () => {
    const found = await hits(a, '采购计划');
    expect(found.map((h) => h.objectId)).toEqual([ids.plan, ids.shanghai]);
    expect(found.map((h) => h.fieldCode)).toEqual(['Name', 'Notes']);
  });

  it('matches option labels of single and multiple choices, and sequence numbers', async () => {
    expect((await hits(a, '紧急')).map((h) => [h.objectId, h.fieldName])).toEqual([[ids.shanghai, '紧急程度']]);
    const tagged = await hits(a, '重点');
    expect(tagged.map((h) => [h.objectId, h.fieldCode])).toEqual([[ids.beijing, 'Tags']]);
    expect(marked(tagged[0]!)).toEqual(['重点']);
    const bySeqNo = await hits(a, 'gj0002');
    expect(bySeqNo.map((h) => [h.objectId, h.fieldCode, h.seqNo])).toEqual([[ids.beijing, 'SeqNo', 'GJ0002']]);
  });

  it('treats % and _ in the keyword as text', async () => {
    expect((await hits(a, '100%')).map((h) => h.objectId)).toEqual([ids.plan]);
    expect(await hits(a, '%%')).toEqual([]);
    expect(await hits(a, '__')).toEqual([]);
  });

  it('pages the hits, saying whether more follow', async () => {
    const first = await search(a, { keyword: '客户', pageSize: '1' });
    const second = await search(a, { keyword: '客户', pageSize: '1', pageIndex: '1' });
    const last = await search(a, { keyword: '客户', pageSize: '1', pageIndex: '2' });
    expect(first.body.data).toMatchObject({ hasMore: true, pageIndex: 0, pageSize: 1 });
    const pageIds = [first, second].map((r) => r.body.data.list[0].hits[0].objectId);
    expect(new Set(pageIds).size).toBe(2);
    expect(last.body.data).toMatchObject({ hasMore: false, list: [] });
  });

  it('keeps trigram indexes on every searched column of the form', async () => {
    const indexes = Object.values(await indexesOf(t, admin.engineCode, `i_${code.toLowerCase()}`)).filter((d) => d.includes('gin_trgm_ops')).join('\n');
    // On the lowered twins, but a text area's on its own column (decision 0103).
    for (const column of ['~Name', '~SeqNo', '~Title', '~Secret', 'Notes', '~Level']) expect(indexes).toContain(`("${column}"`);
  });
});

describe('what a member may read', () => {
  it('does not find records outside their data scope', async () => {
    expect(await titlesOf(a, '客户')).toEqual(['上海浦东客户拜访', '北京客户回访']);
    expect(await titlesOf(alice.c, '客户')).toEqual(['北京客户回访']);
    expect(await hits(alice.c, '年度采购')).toEqual([]);
  });

  it('neither matches nor shows the text of a field hidden from them', async () => {
    const adminHit = (await hits(a, '续签合同')).find((h) => h.objectId === ids.beijing)!;
    expect(adminHit).toMatchObject({ fieldCode: 'Secret', snippet: { text: '续签合同须保密' } });
    const [memberHit, ...more] = await hits(alice.c, '续签合同');
    expect(more).toEqual([]);
    expect(memberHit).toMatchObject({ objectId: ids.beijing, fieldCode: 'Notes' });
    expect(JSON.stringify(memberHit)).not.toContain('保密');
    expect(await hits(alice.c, '保密')).toEqual([]);
    expect((await hits(a, '保密')).map((h) => h.objectId)).toEqual([ids.beijing]);
  });

  it('lists only the nodes they may open', async () => {
    const nodes = (c: OrgClient, keyword: string) => c.get('/v1/fulltextsearch/nodes', { keyword });
    const adminNodes = await nodes(a, '台账');
    expect(adminNodes.list.map((n: { displayName: string }) => n.displayName).sort()).toEqual(['客户台账', '财务台账']);
    expect(adminNodes.list.find((n: { displayName: string }) => n.displayName === '客户台账')).toMatchObject({ appCode: hiddenAppCode, appName: '财务台账', highlights: [{ start: 2, length: 2 }] });
    expect((await nodes(alice.c, '台账')).list).toEqual([]);
    expect((await nodes(alice.c, '跟进')).list).toMatchObject([{ code, appCode, nodeType: FunctionNodeType.FormModule }]);
  });

  it('answers both from the legacy call', async () => {
    const res = await alice.c.raw('GET', '/GlobalSearch/SearchByKey', { keyword: '客户' });
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.nodes.map((n: { code: string }) => n.code)).toEqual([code]);
    expect(res.body.data.records.list.flatMap((g: Group) => g.hits.map((h) => h.objectId))).toEqual([ids.beijing]);
    // Served case-insensitively, as the spec's paths are.
    expect((await alice.c.raw('GET', '/globalsearch/searchbykey', { keyword: '客户' })).body.data.nodes).toHaveLength(1);
  });
});

describe('bad input', () => {
  it('refuses a keyword shorter than two characters with its own code', async () => {
    for (const keyword of ['', '   ', '客']) {
      const res = await search(a, { keyword });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ successful: false, errorCode: 350001 });
    }
    expect((await a.raw('GET', '/v1/fulltextsearch/nodes', { keyword: 'x' })).body.errorCode).toBe(350001);
  });

  it('answers 777 for a missing keyword, a huge or wrong page and unknown parameters, never a 5xx', async () => {
    const cases: Record<string, string>[] = [
      {},
      { keyword: '客户', pageSize: '100000' },
      { keyword: '客户', pageSize: 'abc' },
      { keyword: '客户', pageIndex: '-1' },
      { keyword: '客户', pageIndex: '1.5' },
      { keyword: '客'.repeat(101) },
      { keyword: '客户', extra: '1' },
    ];
    for (const query of cases) {
      const res = await search(a, query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(res.body, JSON.stringify(query)).toMatchObject({ successful: false, errorCode: 777 });
    }
    expect((await a.raw('GET', '/GlobalSearch/SearchByKey', {})).body.errorCode).toBe(777);
  });
});

describe('many matches', () => {
  it('pages newest first through thousands of matches, still within the member’s scope', async () => {
    const table = tableRef(admin.engineCode, `i_${code.toLowerCase()}`);
    // More matches than the probe counts, so the search walks the list index instead of sorting them all.
    const many = SEARCH_PROBE_CAP + 100;
    const me: string = (await a.post('/v1/form/loaddata', { schemaCode: code, objectId: ids.shanghai })).system.CreatedBy;
    await engineSql(t, sql`insert into ${table} ("Name", "Status", "CreatedBy", "ModifiedBy", "OwnerId", "CreatedTime", "Title", "Notes")
      select '批次' || g, 1, ${me}, ${me}, (case when g % 100 = 0 then ${alice.userId} else ${me} end)::uuid,
        now() - g * interval '1 minute', '批次' || g, '批量导入的跟进' || g from generate_series(1, ${many}::int) g`);
    const first = await search(a, { keyword: '批量导入', pageSize: '3' });
    expect(first.body.data.hasMore).toBe(true);
    expect(first.body.data.list.flatMap((g: Group) => g.hits.map((h) => h.title))).toEqual(['批次1', '批次2', '批次3']);
    const third = await hits(a, '批量导入', { pageSize: '3', pageIndex: '2' });
    expect(third.map((h) => h.title)).toEqual(['批次7', '批次8', '批次9']);
    const mine = await hits(alice.c, '批次', { pageSize: '2' });
    expect(mine.map((h) => [h.title, h.fieldCode])).toEqual([['批次100', 'Name'], ['批次200', 'Name']]);
  });
});
