import { describe, expect, it } from 'vitest';
import { buildAppTree, withoutHidden } from './hooks/use-apps.ts';
import type { FunctionNodeDto } from './api/apps-api.ts';

// docs/decisions/0115: forms switched off on a device leave the app's tree there; the default node moves on.

const node = (code: string, parentCode: string, nodeType: number, sortKey: number): FunctionNodeDto => ({
  code, objectId: `o-${code}`, parentCode, appCode: 'crm', displayName: code, icon: '', iconColor: '', nodeType, summary: '', appState: 'Normal',
  source: 'Own', state: 'Normal', url: null, sortKey, permission: 'access',
});

const app = { ...node('crm', '', 190, 0), parentCode: null };
const list = [node('g', 'crm', 230, 0), node('f1', 'g', 200, 0), node('f2', 'g', 200, 1), node('f3', 'crm', 200, 1)];
const tree = buildAppTree(app, 'crm', list, 'f1');
const codes = (t: typeof tree) => t.roots.map((root) => [root.code, root.children.map((child) => child.code)]);

describe('withoutHidden', () => {
  it('leaves the tree as it is when nothing is hidden', () => {
    expect(withoutHidden(tree, new Set())).toBe(tree);
  });

  it('drops hidden forms in groups and at the top, and moves the default to the first node left', () => {
    const shown = withoutHidden(tree, new Set(['f1', 'f3']));
    expect(codes(shown)).toEqual([['g', ['f2']]]);
    expect(shown.defaultSchemaCode).toBe('f2');
  });

  it('keeps a default that is not hidden', () => {
    expect(withoutHidden(tree, new Set(['f3'])).defaultSchemaCode).toBe('f1');
  });
});
