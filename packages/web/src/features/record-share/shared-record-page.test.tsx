import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, stubFetch } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { SharedRecordPage } from './shared-record-page.tsx';

// The page a record share opens (issue 19, ExternalShare): the password first when one is asked, then the record
// read-only — its fields and its sub-tables' rows as the server presents them; an expired share says so.

function openPage(handlers: Parameters<typeof stubFetch>[0]) {
  const stub = stubFetch(handlers);
  renderPage('/external/share/:engineCode/:token', <SharedRecordPage />, '/external/share/alpha01/tok456');
  return stub;
}

const RECORD = {
  displayName: '报销单',
  needsPassword: false,
  title: '出差北京',
  fields: [{ code: 'Title', displayName: '事由', text: '出差北京' }, { code: 'Amount', displayName: '金额', text: '1,280' }, { code: 'Note', displayName: '备注', text: '' }],
  tables: [{ code: 'Items', displayName: '明细', columns: [{ code: 'ItemName', displayName: '项目' }], rows: [['机票'], ['酒店']] }],
};

describe('the shared record page', { timeout: 60_000 }, () => {
  it('asks for the password, then shows the record read-only', async () => {
    const stub = openPage({
      'GET /v1/external/share': (call) => ok(call.headers['x-link-password'] === 'pass-1234' ? RECORD : { ...RECORD, needsPassword: true, title: '', fields: [], tables: [] }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('访问密码'), 'pass-1234');
    await user.click(screen.getByRole('button', { name: /进\s*入/ }));
    expect(await screen.findByText('只读分享')).toBeTruthy();
    expect(screen.getByText('1,280')).toBeTruthy();
    expect(screen.getByText('--')).toBeTruthy();
    const table = screen.getByRole('table', { name: '明细' });
    expect(within(table).getByText('酒店')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    const asked = new URL(stub.callsTo('GET', '/v1/external/share').at(-1)!.url, 'http://localhost').searchParams;
    expect([asked.get('engineCode'), asked.get('token')]).toEqual(['alpha01', 'tok456']);
  });

  it('says an expired share has expired, and an unknown one does not exist', async () => {
    openPage({ 'GET /v1/external/share': () => fail(330104, '该分享已过期') });
    expect(await screen.findByText('该分享已过期')).toBeTruthy();
  });
});
