import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect-target.ts';

const origin = 'http://localhost:3000';

describe('safeRedirectTarget', () => {
  it('follows same-origin paths', () => {
    expect(safeRedirectTarget('/workbench/app?x=1#y', origin)).toBe('/workbench/app?x=1#y');
    expect(safeRedirectTarget('http://localhost:3000/form/designer', origin)).toBe('/form/designer');
  });

  it('refuses other sites, scripts and entry pages', () => {
    for (const value of ['https://evil.example/', '//evil.example/x', 'javascript:alert(1)', '/entry/logout', '/mobile/code', '', null]) {
      expect(safeRedirectTarget(value, origin)).toBeUndefined();
    }
  });

  it('comes back to an association link after signing in (the one entry page that needs a session)', () => {
    expect(safeRedirectTarget('/entry/ass-org?associatedCode=abc', origin)).toBe('/entry/ass-org?associatedCode=abc');
    expect(safeRedirectTarget('/entry/make-org?associatedCode=abc', origin)).toBe('/entry/make-org?associatedCode=abc');
    expect(safeRedirectTarget('/entry/ass-org/x', origin)).toBeUndefined();
  });
});
