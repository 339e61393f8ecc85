import { describe, it, expect } from 'vitest';
import { ENTRY_BASE_PATH, ENTRY_ROUTES, EntryRoute, FORM_DESIGNER_PATH, WORKBENCH_PATH, externalAuthPath } from './entry-routes.ts';

// calls.md §2, in the order of its table.
const SPEC_PATHS = [
  '/', '/login', '/login/mobile', '/login/corp', '/login/dingtalk', '/login/wechat', '/login/wxwork', '/login/feishu',
  '/login/reset', '/login/ext', '/login/verifyCode', '/mobile/code', '/register', '/register/authCode', '/register/corp',
  '/register/dingtalk', '/register/wechat', '/register/success', '/auth', '/auth/wxwork', '/auth/external/:code',
  '/auth/dingtalk', '/auth/feishu', '/error', '/success', '/ass-org', '/make-org', '/logout', '/expire',
];

describe('entry routes', () => {
  it('cover every path of calls.md §2 once', () => {
    expect(ENTRY_ROUTES.map((r) => r.path)).toEqual(SPEC_PATHS);
    expect(Object.values(EntryRoute).sort()).toEqual([...SPEC_PATHS].sort());
  });

  it('mark the paths without a page', () => {
    const withoutPage = ENTRY_ROUTES.filter((r) => !r.hasPage).map((r) => r.path);
    expect(withoutPage.sort()).toEqual(['/auth/dingtalk', '/auth/feishu', '/login', '/login/feishu', '/login/mobile']);
    expect(ENTRY_ROUTES.filter((r) => r.redirectTo).map((r) => [r.path, r.redirectTo])).toEqual([
      ['/login', '/'],
      ['/login/mobile', '/'],
    ]);
  });

  it('draw only /mobile/code outside the layout', () => {
    expect(ENTRY_ROUTES.filter((r) => !r.inLayout).map((r) => r.path)).toEqual(['/mobile/code']);
  });

  it('know the base path and the paths of other apps', () => {
    expect(ENTRY_BASE_PATH).toBe('entry');
    expect(WORKBENCH_PATH).toBe('/workbench');
    expect(FORM_DESIGNER_PATH).toBe('/form/designer');
  });

  it('build the external authorisation path with an encoded code', () => {
    expect(externalAuthPath('abc')).toBe('/auth/external/abc');
    expect(externalAuthPath('a/b c')).toBe('/auth/external/a%2Fb%20c');
  });
});
