import { describe, it, expect } from 'vitest';
import { GLOBAL_QUERY_PARAMS, readGlobalQueryParams } from './query-params.ts';

const DEFAULTS = { loginInvalid: 'false', isExperienceMode: 'false' };

describe('readGlobalQueryParams', () => {
  it('applies the defaults to an empty query', () => {
    expect(readGlobalQueryParams('')).toEqual(DEFAULTS);
    expect(readGlobalQueryParams('?')).toEqual(DEFAULTS);
  });

  it('matches names without case and returns canonical names', () => {
    expect(readGlobalQueryParams('?ENGINECODE=e1&schemacode=s1&WorkItemId=w1&RedirectURL=%2Fworkbench')).toEqual({
      ...DEFAULTS,
      engineCode: 'e1',
      schemaCode: 's1',
      workitemId: 'w1',
      redirectUrl: '/workbench',
    });
  });

  it('works without the leading question mark and ignores a fragment', () => {
    expect(readGlobalQueryParams('corpId=c1#/login?corpId=c2')).toEqual({ ...DEFAULTS, corpId: 'c1' });
  });

  it('maps aliases to the canonical name', () => {
    expect(readGlobalQueryParams('?appId=a1&wxcorpid=w1&FSCORPID=f1&isvCid=i1&wxSuiteId=s1')).toEqual({
      ...DEFAULTS,
      appCode: 'a1',
      wechatCorpId: 'w1',
      feishuCorpId: 'f1',
      isvCorpId: 'i1',
      wechatSuiteId: 's1',
    });
  });

  it('prefers the canonical spelling over an alias, then the first occurrence', () => {
    expect(readGlobalQueryParams('?appId=alias&appCode=canonical').appCode).toBe('canonical');
    expect(readGlobalQueryParams('?appCode=canonical&appId=alias').appCode).toBe('canonical');
    expect(readGlobalQueryParams('?code=first&CODE=second').code).toBe('first');
  });

  it('lets explicit values replace the defaults, and treats empty values as missing', () => {
    expect(readGlobalQueryParams('?loginInvalid=true&ISEXPERIENCEMODE=true')).toEqual({ loginInvalid: 'true', isExperienceMode: 'true' });
    expect(readGlobalQueryParams('?loginInvalid=&token=')).toEqual(DEFAULTS);
  });

  it('decodes values', () => {
    expect(readGlobalQueryParams('?redirectUrl=https%3A%2F%2Fa.cn%2Fx%3Fy%3D1&account=%E5%BC%A0+%E4%B8%89')).toMatchObject({
      redirectUrl: 'https://a.cn/x?y=1',
      account: '张 三',
    });
  });

  it('leaves out unknown parameters', () => {
    expect(readGlobalQueryParams('?foo=1&__proto__=x&constructor=y')).toEqual(DEFAULTS);
  });

  it('derives from = dingdingda only from a from parameter saying so', () => {
    expect(readGlobalQueryParams('?from=dingdingda').from).toBe('dingdingda');
    expect(readGlobalQueryParams('?FROM=DingDingDa').from).toBe('dingdingda');
    expect(readGlobalQueryParams('?from=wechat')).not.toHaveProperty('from');
    expect(readGlobalQueryParams('?appType=dingdingda')).not.toHaveProperty('from');
  });

  it('knows every parameter of calls.md §2 once', () => {
    const names = GLOBAL_QUERY_PARAMS.flatMap((p) => [p.name, ...p.aliases]).map((n) => n.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    expect(GLOBAL_QUERY_PARAMS).toHaveLength(35);
  });
});
