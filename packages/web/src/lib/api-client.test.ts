import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient, configureApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { addBreadcrumb } from './breadcrumbs.ts';
import { setNotifier } from './notifier.ts';
import { getToken, setEngineCode, setToken } from './session.ts';
import { fail, json, ok, stubFetch } from '../test/fetch-stub.ts';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function spyNotifier() {
  const notifier = { bizError: vi.fn(), sysError: vi.fn() };
  setNotifier(notifier);
  return notifier;
}

async function catchError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('apiClient', () => {
  const navigate = vi.fn();
  beforeEach(() => {
    navigate.mockReset();
    configureApiClient({ navigate });
  });

  it('returns the data of a successful envelope', async () => {
    stubFetch({ 'GET /v1/register/getscalelist': () => ok({ list: [{ code: '1-20', name: '1-20人' }] }) });
    await expect(apiClient.get('/v1/register/getscalelist')).resolves.toEqual({ list: [{ code: '1-20', name: '1-20人' }] });
  });

  it('sends credentials, the bearer token and the engine from the cookies, and JSON bodies', async () => {
    setToken('token-abc');
    setEngineCode('eng1234');
    const { calls } = stubFetch({ 'POST /v1/switch/batch': () => ok({ switches: [] }) });
    await apiClient.post('/v1/switch/batch', { names: ['ai'] });
    const [call] = calls;
    expect(call.credentials).toBe('include');
    expect(call.headers.authorization).toBe('Bearer token-abc');
    expect(call.headers.enginecode).toBe('eng1234');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.body).toEqual({ names: ['ai'] });
    // The server answers validation messages in the language of the switch (docs/decisions/0028).
    expect(call.headers['accept-language']).toBe('zh-CN');
  });

  it('puts query parameters on the URL and leaves out empty ones', async () => {
    const { calls } = stubFetch({ 'GET /v1/register/validate': () => ok({ registered: false }) });
    await apiClient.get('/v1/register/validate', { query: { mobile: '13800000000', extra: undefined } });
    expect(calls[0].url).toBe('/v1/register/validate?mobile=13800000000');
    expect(calls[0].headers.authorization).toBeUndefined();
  });

  it('throws a typed ApiError for a business error and shows the business pop-up', async () => {
    const notifier = spyNotifier();
    stubFetch({ 'POST /v1/login/mobile/password': () => fail(201201, '手机号或密码错误', { errorTitle: '操作失败', detail: { a: 1 } }) });
    const error = await catchError(apiClient.post('/v1/login/mobile/password', { mobile: '13800000000', password: 'x' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ errorCode: 201201, errorMessage: '手机号或密码错误', errorType: 'BIZ', errorTitle: '操作失败', status: 200, detail: { a: 1 } });
    expect(notifier.bizError).toHaveBeenCalledTimes(1);
    expect(notifier.sysError).not.toHaveBeenCalled();
  });

  it('disableBizError leaves the pop-up to the caller', async () => {
    const notifier = spyNotifier();
    stubFetch({ 'POST /v1/login/mobile/password': () => fail(201201, '手机号或密码错误') });
    await catchError(apiClient.post('/v1/login/mobile/password', {}, { disableBizError: true }));
    expect(notifier.bizError).not.toHaveBeenCalled();
  });

  it('system errors use the system pop-up unless disableSysError', async () => {
    const notifier = spyNotifier();
    stubFetch({ 'GET /v1/user/info': () => json({ successful: false, errorCode: 888, errorMessage: '服务器系统错误', errorType: 'SYS', requestId: 'r1' }, 500) });
    const error = await catchError(apiClient.get('/v1/user/info'));
    expect(error).toMatchObject({ errorCode: 888, errorType: 'SYS', errorTitle: '服务器错误', status: 500, requestId: 'r1' });
    expect(notifier.sysError).toHaveBeenCalledTimes(1);
    await catchError(apiClient.get('/v1/user/info', { disableSysError: true }));
    expect(notifier.sysError).toHaveBeenCalledTimes(1);
  });

  it.each([
    [404, '访问被拒绝', '访问的记录不存在'],
    [418, '访问被拒绝', '请求被拒绝'],
    [502, '服务器错误', '网关错误'],
    [503, '服务器错误', '服务不可用，服务器暂时过载或在维护'],
    [429, '错误', '请联系管理员'],
  ])('an HTTP %i without an envelope gets the title %s', async (status, title, message) => {
    stubFetch({ 'GET /v1/anything': () => new Response('<html>oops</html>', { status }) });
    const error = await catchError(apiClient.get('/v1/anything'));
    expect(error).toMatchObject({ errorCode: status, errorTitle: title, errorMessage: message, status, errorType: 'SYS' });
  });

  it('a network failure is network.error', async () => {
    const notifier = spyNotifier();
    stubFetch({ 'GET /v1/user/info': () => Promise.reject(new TypeError('Failed to fetch')) });
    const error = await catchError(apiClient.get('/v1/user/info'));
    expect(error).toMatchObject({ errorCode: 'network.error', errorMessage: '网络异常，请检查网络连接后重试', status: 0 });
    expect(notifier.sysError).toHaveBeenCalledTimes(1);
  });

  it('a call that takes longer than its timeout is a network error', async () => {
    stubFetch({
      'GET /v1/slow': (_call, init) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    });
    const error = await catchError(apiClient.get('/v1/slow', { timeoutMs: 20 }));
    expect(error).toMatchObject({ errorCode: 'network.error', errorMessage: '请求超时，请稍后重试' });
  });

  it('a call the caller aborts is rethrown untouched: no pop-up, no log', async () => {
    const notifier = spyNotifier();
    const { callsTo } = stubFetch({
      'GET /v1/slow': (_call, init) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    });
    const controller = new AbortController();
    const promise = apiClient.get('/v1/slow', { signal: controller.signal });
    controller.abort();
    const error = await catchError(promise);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
    await flush();
    expect(notifier.sysError).not.toHaveBeenCalled();
    expect(callsTo('POST', '/v1/log')).toHaveLength(0);
  });

  it('non-JSON and empty success answers are returnType and returnNull errors', async () => {
    stubFetch({
      'GET /v1/text': () => new Response('hello', { status: 200 }),
      'GET /v1/empty': () => new Response('', { status: 200 }),
    });
    await expect(catchError(apiClient.get('/v1/text'))).resolves.toMatchObject({ errorCode: 'returnType.error' });
    await expect(catchError(apiClient.get('/v1/empty'))).resolves.toMatchObject({ errorCode: 'returnNull.error' });
  });

  it('401 clears the token and sends the user to the expiry page, back to where they were', async () => {
    const notifier = spyNotifier();
    setToken('old-token');
    window.history.replaceState(null, '', '/workbench/apps?x=1');
    stubFetch({ 'GET /v1/user/info': () => fail(200102, '登录已过期，请重新登录', {}, 401) });
    await catchError(apiClient.get('/v1/user/info'));
    expect(getToken()).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith(`/entry/expire?redirectUrl=${encodeURIComponent('/workbench/apps?x=1')}`);
    expect(notifier.bizError).not.toHaveBeenCalled();
  });

  it('401 on an entry page clears the token but stays on the page', async () => {
    setToken('old-token');
    window.history.replaceState(null, '', '/entry/register/corp');
    stubFetch({ 'POST /v1/register/engine': () => fail(200201, '未登录或登录凭证无效', {}, 401) });
    await catchError(apiClient.post('/v1/register/engine', {}));
    expect(getToken()).toBeUndefined();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('posts every error to /v1/log with at most the last 10 breadcrumbs', async () => {
    for (let i = 1; i <= 15; i += 1) addBreadcrumb(`route /page-${i}`);
    const { callsTo } = stubFetch({ 'GET /v1/user/info': () => fail(200501, '用户不存在') });
    await catchError(apiClient.get('/v1/user/info'));
    await flush();
    const [log] = callsTo('POST', '/v1/log');
    const body = log.body as Record<string, unknown>;
    expect(body).toMatchObject({ Content: '用户不存在', Level: 'Warn', ErrorCode: 200501, ExceptionType: 'ApiError', RequestUrl: '/v1/user/info' });
    expect(body.BreadCrumb).toHaveLength(10);
    expect((body.BreadCrumb as string[])[0]).toBe('route /page-6');
    expect((body.BreadCrumb as string[])[9]).toBe('route /page-15');
    expect(typeof body.LogTime).toBe('string');
  });

  it('a failing log call is not logged again', async () => {
    const { callsTo } = stubFetch({
      'GET /v1/user/info': () => Promise.reject(new TypeError('offline')),
      'POST /v1/log': () => Promise.reject(new TypeError('offline')),
    });
    await catchError(apiClient.get('/v1/user/info'));
    await flush();
    await flush();
    expect(callsTo('POST', '/v1/log')).toHaveLength(1);
  });
});
