import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Widget } from '@tritium/shared/report/index';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage } from '../../../test/render.tsx';
import { WidgetEditor } from './widget-editor.tsx';

// A data widget counts Effective records unless its source includes drafts (docs/decisions/0044).

const widget = { id: 'w', type: 'table', title: '', layout: { x: 0, y: 0, w: 6, h: 4 }, source: { schemaCode: 'orders' }, dimensions: [], measures: [{ aggregate: 'count' }], totals: false } as Widget;

describe('the widget editor', () => {
  it('offers 包含草稿数据 on a data widget and sets the source option', async () => {
    stubFetch({
      'GET /v1/functionNode/app/feature/list': () => ok({ list: [{ code: 'orders', displayName: '订单', nodeType: 200 }] }),
      'GET /v1/report/fields': () => ok({ fields: [], grids: [] }),
    });
    const onChange = vi.fn();
    const user = userEvent.setup();
    renderPage('/designer', <WidgetEditor widget={widget} appCode="app" onChange={onChange} />);
    const box = await screen.findByRole('checkbox', { name: '包含草稿数据' });
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('默认只统计生效的数据；勾选后草稿、进行中和已作废的数据也计入')).toBeTruthy();
    await user.click(box);
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ source: { schemaCode: 'orders', includeDrafts: true } }));
  });

  it('shows it checked for a widget that includes drafts, and no box on a text widget', async () => {
    stubFetch({ 'GET /v1/report/fields': () => ok({ fields: [], grids: [] }) });
    const { unmount } = renderPage('/designer', <WidgetEditor widget={{ ...widget, source: { schemaCode: 'orders', includeDrafts: true } }} appCode="app" onChange={() => undefined} />);
    expect(((await screen.findByRole('checkbox', { name: '包含草稿数据' })) as HTMLInputElement).checked).toBe(true);
    unmount();
    renderPage('/designer', <WidgetEditor widget={{ ...widget, type: 'text', source: undefined }} appCode="app" onChange={() => undefined} />);
    expect(screen.queryByRole('checkbox', { name: '包含草稿数据' })).toBeNull();
  });
});
