import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { confirmPopover, renderPanel } from '../../../test/render-panel.tsx';
import { fail, ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';
import { findDialog } from '../../../test/find-dialog.ts';
import { changeLocale } from '../../../lib/i18n.ts';
import { CustomIndexesPanel } from './custom-indexes-panel.tsx';
import { SeqNoPanel } from './seq-no-panel.tsx';
import { RollupRecomputePanel } from './rollup-recompute-panel.tsx';

const FIELDS = [
  { code: 'F0001', label: '客户名称' },
  { code: 'F0002', label: '来源' },
];
const index = (fields: string[], n: number) => ({ indexName: `i_lead_${n}`, fields, createdTime: '2026-11-20T08:00:00.000Z' });
const bodyOf = (call: RecordedCall) => call.body as Record<string, unknown>;

/** The custom index calls over one form: a list the saves and removals change. */
function stubIndexes(initial: ReturnType<typeof index>[], refuseSave?: { code: number; message: string }) {
  let list = [...initial];
  return stubFetch({
    'POST /v1/formconfig/customindex/list': () => ok({ list, limits: { maxIndexes: 5, maxFieldsPerIndex: 5 } }),
    'POST /v1/formconfig/customindex/save': (call) => {
      if (refuseSave) return fail(refuseSave.code, refuseSave.message);
      const created = index(bodyOf(call).fields as string[], list.length + 10);
      list = [...list, created];
      return ok(created);
    },
    'POST /v1/formconfig/customindex/remove': (call) => {
      list = list.filter((i) => i.indexName !== bodyOf(call).indexName);
      return ok({ removed: true });
    },
  });
}

describe('自定义索引', () => {
  it('shows the limits and the indexes, adds one on the chosen fields in order and removes one after asking', async () => {
    const { callsTo } = stubIndexes([index(['F0001'], 1)]);
    const user = userEvent.setup();
    renderPanel(<CustomIndexesPanel schemaCode="f_lead" fields={FIELDS} />);
    expect(await screen.findByText('每个表单最多 5 个索引，每个索引最多 5 个字段（已建 1 个）')).toBeTruthy();
    const list = screen.getByRole('list', { name: '自定义索引' });
    expect(within(list).getByText('客户名称')).toBeTruthy();

    await user.click(screen.getByLabelText('索引字段'));
    await user.click(await screen.findByTitle('来源'));
    await user.click(await screen.findByTitle('创建时间'));
    await user.click(screen.getByRole('button', { name: /添加索引/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/formconfig/customindex/save').map(bodyOf)).toEqual([{ schemaCode: 'f_lead', fields: ['F0002', 'CreatedTime'] }]));
    expect(await screen.findByText('每个表单最多 5 个索引，每个索引最多 5 个字段（已建 2 个）')).toBeTruthy();

    await user.click(within(screen.getAllByRole('listitem')[0]).getByRole('button', { name: /删除/ }));
    await confirmPopover(user, '删除这个索引？删除后按这些字段的查询可能变慢。', '删除');
    await waitFor(() => expect(callsTo('POST', '/v1/formconfig/customindex/remove').map(bodyOf)).toEqual([{ schemaCode: 'f_lead', indexName: 'i_lead_1' }]));
    expect(await screen.findByText('每个表单最多 5 个索引，每个索引最多 5 个字段（已建 1 个）')).toBeTruthy();
  });

  it('at the limit of 5 offers no new index', async () => {
    stubIndexes([1, 2, 3, 4, 5].map((n) => index(['F0001'], n)));
    renderPanel(<CustomIndexesPanel schemaCode="f_lead" fields={FIELDS} />);
    expect(await screen.findByText('已达到索引数量上限，请先删除不用的索引')).toBeTruthy();
    expect(screen.queryByLabelText('索引字段')).toBeNull();
  });

  it('says in English why an index was refused and why a form has none yet', async () => {
    await changeLocale('en-US');
    stubIndexes([], { code: 240008, message: '已有相同字段的索引' });
    const user = userEvent.setup();
    renderPanel(<CustomIndexesPanel schemaCode="f_lead" fields={FIELDS} />);
    expect(await screen.findByText('A form has at most 5 indexes of at most 5 fields each (0 so far)')).toBeTruthy();
    await user.click(screen.getByLabelText('Index fields'));
    await user.click(await screen.findByTitle('客户名称'));
    await user.click(screen.getByRole('button', { name: /Add index/ }));
    expect(await screen.findByText('An index on the same fields exists already')).toBeTruthy();
  });

  it('a form not yet published says so in place', async () => {
    stubFetch({ 'POST /v1/formconfig/customindex/list': () => fail(240004, '表单尚未发布') });
    renderPanel(<CustomIndexesPanel schemaCode="f_lead" fields={FIELDS} />);
    expect(await screen.findByText('表单尚未发布')).toBeTruthy();
  });
});

describe('流水号', () => {
  it('shows the control, its reset period and the current and next numbers; 重置 asks first, then starts again at 1', async () => {
    let counters = [{ controlCode: 'F0009', period: '202611', value: 41 }];
    const { callsTo } = stubFetch({
      'POST /v1/formdesign/seqno/info': () => ok({ list: counters, control: { code: 'F0009', resetMode: 'month' } }),
      'POST /v1/formdesign/seqno/reset': () => {
        counters = [];
        return ok({ removed: 1 });
      },
    });
    const user = userEvent.setup();
    renderPanel(<SeqNoPanel schemaCode="f_lead" controlName="合同编号" />);
    expect(await screen.findByText('合同编号（F0009）')).toBeTruthy();
    expect(screen.getByText('每月')).toBeTruthy();
    const row = screen.getByRole('row', { name: /202611/ });
    expect(within(row).getByText('41')).toBeTruthy();
    expect(within(row).getByText('42')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /重置流水号/ }));
    const ask = await findDialog('重置流水号？');
    expect(within(ask).getByText(/下一条数据的编号将重新从 1 开始/)).toBeTruthy();
    expect(callsTo('POST', '/v1/formdesign/seqno/reset')).toHaveLength(0);
    await user.click(within(ask).getByRole('button', { name: '重置' }));
    await waitFor(() => expect(callsTo('POST', '/v1/formdesign/seqno/reset').map(bodyOf)).toEqual([{ schemaCode: 'f_lead', controlCode: 'F0009' }]));
    expect(await screen.findByText('还没有发放过编号，下一条数据从 1 开始。')).toBeTruthy();
  });

  it('a form without a sequence number control says how to get one', async () => {
    stubFetch({ 'POST /v1/formdesign/seqno/info': () => ok({ list: [], control: null }) });
    renderPanel(<SeqNoPanel schemaCode="f_lead" />);
    expect(await screen.findByText('表单中没有流水号控件，添加并发布后即可在此查看和重置。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /重置流水号/ })).toBeNull();
  });
});

describe('重新计算汇总', () => {
  const ACTION = '01a20200-0000-7000-8000-0000000000aa';

  it('starts the job and follows its progress to what it changed', async () => {
    const steps = [
      { actionId: ACTION, isComplete: false, state: 'Running', progress: 40, message: '80/200', result: null },
      { actionId: ACTION, isComplete: true, state: 'Finished', progress: 100, message: null, result: { records: 200, changed: 12 } },
    ];
    let step = 0;
    const { callsTo } = stubFetch({
      'POST /v1/form/rollup/recompute': () => ok({ actionId: ACTION }),
      'GET /v1/form/rollup/progress': () => ok(steps[Math.min(step++, steps.length - 1)]),
    });
    const user = userEvent.setup();
    renderPanel(<RollupRecomputePanel schemaCode="f_lead" />);
    await user.click(screen.getByRole('button', { name: /开始重新计算/ }));
    expect(await screen.findByText('已处理 80/200 条')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: '计算进度' }).getAttribute('aria-valuenow')).toBe('40');
    expect(await screen.findByText('计算完成：共 200 条数据，其中 12 条的汇总值有变化。', {}, { timeout: 3000 })).toBeTruthy();
    expect(callsTo('POST', '/v1/form/rollup/recompute').map(bodyOf)).toEqual([{ schemaCode: 'f_lead' }]);
    expect(callsTo('GET', '/v1/form/rollup/progress')[0].url).toContain(`actionId=${ACTION}`);
    expect(screen.getByRole('button', { name: /再次计算/ })).toBeTruthy();
  });

  it('a failed job says why, and a refused start shows the catalogue message', async () => {
    let refuse = true;
    stubFetch({
      'POST /v1/form/rollup/recompute': () => (refuse ? fail(230005, '您没有管理该应用的权限') : ok({ actionId: ACTION })),
      'GET /v1/form/rollup/progress': () => ok({ actionId: ACTION, isComplete: false, state: 'Failed', progress: 10, message: '汇总来源表单不存在', result: null }),
    });
    const user = userEvent.setup();
    renderPanel(<RollupRecomputePanel schemaCode="f_lead" />);
    await user.click(screen.getByRole('button', { name: /开始重新计算/ }));
    expect(await screen.findByText('您没有管理该应用的权限')).toBeTruthy();
    refuse = false;
    await user.click(screen.getByRole('button', { name: /开始重新计算/ }));
    expect(await screen.findByText('重新计算未完成：汇总来源表单不存在')).toBeTruthy();
  });
});
