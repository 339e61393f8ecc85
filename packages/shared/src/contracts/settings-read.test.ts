import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EngineDto } from './auth/user.ts';
import { FormAttributes } from './form-design/definition.ts';
import { AppDto, CreateNodeBody, FunctionNodeDto, UpdateNodeBody } from './function-node/index.ts';

// Every attribute of the form, app, node and engine contracts is read by some code outside the contracts: a setting
// that is saved and then ignored fails here (docs/decisions/0115). The contracts, tests, locales (labels) and the
// screens that only edit a value do not count as readers.

const packages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const EDITORS = ['web/src/features/form-designer/components/form-attributes-panel.tsx', 'web/src/features/apps/components/node-dialog.tsx'];

/** Pure echo fields: identities and names carried back and forth, which nothing needs to act upon. */
const ECHO: Record<string, string> = {
  objectId: 'a node\'s second identity, echoed from the node row as the spec lists it',
};

const contracts: Record<string, { shape: Record<string, unknown> }> = { FormAttributes, CreateNodeBody, UpdateNodeBody, FunctionNodeDto, AppDto, EngineDto };

function sources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      const rel = path.relative(packages, file).split(path.sep).join('/');
      if (statSync(file).isDirectory()) {
        if (!['node_modules', 'test', 'locales', 'dist'].includes(name) && rel !== 'shared/src/contracts') walk(file);
      } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !EDITORS.includes(rel)) files.push(readFileSync(file, 'utf8'));
    }
  };
  for (const pkg of ['server/src', 'web/src', 'shared/src']) walk(path.join(packages, pkg));
  return files;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe('settings take effect', () => {
  const texts = sources();
  const isRead = (name: string) => {
    const pattern = new RegExp(`\\b(${name}|${snake(name)})\\b`);
    return texts.some((text) => pattern.test(text));
  };

  it.each(Object.entries(contracts))('every attribute of %s is read outside the contracts', (_, schema) => {
    const unread = Object.keys(schema.shape).filter((key) => !ECHO[key] && !isRead(key));
    expect(unread).toEqual([]);
  });

  it('the echo list names only attributes of these contracts', () => {
    const all = new Set(Object.values(contracts).flatMap((schema) => Object.keys(schema.shape)));
    expect(Object.keys(ECHO).filter((key) => !all.has(key))).toEqual([]);
  });
});
