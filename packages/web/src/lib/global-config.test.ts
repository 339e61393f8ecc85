import { describe, expect, it } from 'vitest';
import { globalConfig, recordNavigation } from './global-config.ts';

describe('recordNavigation', () => {
  it('keeps the previous full path and the query parameters of the current one', () => {
    recordNavigation({ pathname: '/entry/', search: '?a=1', hash: '' });
    recordNavigation({ pathname: '/workbench', search: '?EngineCode=e2&appId=app1', hash: '#x' });
    expect(globalConfig.previousPath).toBe('/entry/?a=1');
    expect(globalConfig.currentPath).toBe('/workbench?EngineCode=e2&appId=app1#x');
    expect(globalConfig.queryParams).toMatchObject({ engineCode: 'e2', appCode: 'app1', loginInvalid: 'false', isExperienceMode: 'false' });
  });

  it('ignores a repeated report of the same location', () => {
    recordNavigation({ pathname: '/a', search: '', hash: '' });
    recordNavigation({ pathname: '/b', search: '', hash: '' });
    recordNavigation({ pathname: '/b', search: '', hash: '' });
    expect(globalConfig.previousPath).toBe('/a');
  });
});
