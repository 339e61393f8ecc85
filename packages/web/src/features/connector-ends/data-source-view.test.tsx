import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { ok, stubFetch, type RecordedCall } from '../../test/fetch-stub.ts';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { DataSourceView } from './data-source-view.tsx';

// The data-source node's view (docs/decisions/0123): a member sees the configured columns, and every page or filter
// change is one query to the server with the page and the filters; an unconfigured node says so.

const definition = {
  connectorCode: 'ListOrders',
  listOutput: 'orders',
  columns: [{ field: 'no', title: '订单号' }, { field: 'amount', title: '金额' }],
  filters: [{ place: 'Status', label: '订单状态' }],
  paging: { pageIndexPlace: 'Page', pageSizePlace: 'Size', firstPage: 1, totalOutput: 'total' },
};
const node = (extra: Record<string, unknown> = {}) => ({ code: 'ds1', displayName: 'ERP 订单', appCode: 'erp', definition, canDesign: false, modifiedTime: null, ...extra });
/** 45 orders at the "outside system"; the filter keeps every third. */
function answer(call: RecordedCall) {
  const body = call.body as { pageIndex: number; pageSize: number; filters: Record<string, string> };
  const all = Array.from({ length: 45 }, (_, i) => ({ no: `SO-${i + 1}`, amount: i * 10 })).filter((_, i) => !body.filters.Status || i % 3 === 0);
  return ok({ columns: definition.columns, rows: all.slice(body.pageIndex * body.pageSize, (body.pageIndex + 1) * body.pageSize), total: all.length });
}

describe('the data-source view', { timeout: 60_000 }, () => {
  it('pages and filters through the server', async () => {
    const server = stubFetch({ 'GET /v1/connectors/datasource/get': () => ok(node()), 'POST /v1/connectors/datasource/query': answer });
    setToken('t1');
    setEngineCode('alpha01');
    const user = userEvent.setup();
    renderPage('/n', <DataSourceView code="ds1" />);
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('SO-1')).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: '订单号' })).toBeTruthy();
    expect(screen.getByText('共 45 条')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /设置数据源/ })).toBeNull();
    await user.click(screen.getByTitle('3'));
    await waitFor(() => expect(within(table).getByText('SO-41')).toBeTruthy());
    expect(server.callsTo('POST', '/v1/connectors/datasource/query').at(-1)!.body).toEqual({ nodeCode: 'ds1', pageIndex: 2, pageSize: 20, filters: {} });
    await user.type(screen.getByLabelText('订单状态'), 'open');
    await user.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(screen.getByText('共 15 条')).toBeTruthy());
    expect(server.callsTo('POST', '/v1/connectors/datasource/query').at(-1)!.body).toEqual({ nodeCode: 'ds1', pageIndex: 0, pageSize: 20, filters: { Status: 'open' } });
  });

  it('an unconfigured node tells a member to ask, and offers its administrator the setup', async () => {
    stubFetch({ 'GET /v1/connectors/datasource/get': () => ok(node({ definition: null })) });
    setToken('t1');
    setEngineCode('alpha01');
    const first = renderPage('/n', <DataSourceView code="ds1" />);
    expect(await screen.findByText('数据源尚未设置，请联系应用管理员')).toBeTruthy();
    first.unmount();
    stubFetch({ 'GET /v1/connectors/datasource/get': () => ok(node({ definition: null, canDesign: true })), 'GET /v1/connectors/datasource/connectors': () => ok({ items: [] }) });
    renderPage('/n', <DataSourceView code="ds1" />);
    await userEvent.setup().click(await screen.findByRole('button', { name: /设置数据源/ }));
    expect(await screen.findByText(/没有可用的连接器/)).toBeTruthy();
  });
});
