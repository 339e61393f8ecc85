import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, stubFetch } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { PublicFormPage } from './public-form-page.tsx';

// The page a public fill-in link opens (issue 19, ExternalForm): the password first when one is asked, then the
// simple fields; required ones are asked for; the values go out as typed; a closed link says so.

// Published options, as the server answers them (the control registry's defaults applied).
const FIELDS = [
  { code: 'Guest', type: 'textBox', displayName: '姓名', required: true, options: controlTypeByKey('textBox').options.parse({ displayName: '姓名', required: true }) },
  { code: 'Seats', type: 'number', displayName: '人数', required: false, options: controlTypeByKey('number').options.parse({ displayName: '人数' }) },
  { code: 'Meal', type: 'radioList', displayName: '餐食', required: false, options: controlTypeByKey('radioList').options.parse({ displayName: '餐食', defaultItems: ['常规', '素食'] }) },
];

function openPage(handlers: Parameters<typeof stubFetch>[0]) {
  const stub = stubFetch(handlers);
  renderPage('/external/form/:engineCode/:token', <PublicFormPage />, '/external/form/alpha01/tok123');
  return stub;
}

describe('the public form page', { timeout: 60_000 }, () => {
  it('asks for the password, then takes the fields and submits them', async () => {
    const stub = openPage({
      'GET /v1/external/form': (call) =>
        ok(call.headers['x-link-password'] === 'secret' ? { displayName: '年会报名', needsPassword: false, fields: FIELDS } : { displayName: '年会报名', needsPassword: true, fields: [] }),
      'POST /v1/external/form/submit': () => ok({ submitted: true, seqNo: null }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('访问密码'), 'wrong');
    await user.click(screen.getByRole('button', { name: /进\s*入/ }));
    expect(await screen.findByText('访问密码不正确')).toBeTruthy();
    await user.clear(screen.getByLabelText('访问密码'));
    await user.type(screen.getByLabelText('访问密码'), 'secret');
    await user.click(screen.getByRole('button', { name: /进\s*入/ }));
    await user.click(await screen.findByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请填写姓名')).toBeTruthy();
    await user.type(screen.getByLabelText('姓名'), '陆嘉宾');
    await user.type(screen.getByLabelText('人数'), '2');
    await user.click(screen.getByText('素食'));
    await user.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(stub.callsTo('POST', '/v1/external/form/submit')).toHaveLength(1));
    expect(stub.callsTo('POST', '/v1/external/form/submit')[0]!.body).toEqual({ engineCode: 'alpha01', token: 'tok123', password: 'secret', values: { Guest: '陆嘉宾', Seats: 2, Meal: '素食' } });
    expect(await screen.findByText('提交成功，感谢填写！')).toBeTruthy();
  });

  it('says a closed link no longer takes submissions', async () => {
    openPage({ 'GET /v1/external/form': () => fail(330102, '该表单已停止收集（已过期或已达到提交上限）') });
    expect(await screen.findByText('该表单已停止收集')).toBeTruthy();
  });
});
