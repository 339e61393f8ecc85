import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '@tritium/shared/errors/catalogue';
import { DOCUMENTED_UNUSED } from '@tritium/shared/errors/unused';

// Every catalogue code is raised by some server code, or is listed in DOCUMENTED_UNUSED with the reason it is kept.

const srcRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function serverSources(dir = srcRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverSources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [readFileSync(full, 'utf8')] : [];
  });
}

/** Names no source mentions as a string ('Name', "Name", `Name`) or a property (ERRORS.Name). */
function unraisedNames(names: readonly string[], sources: readonly string[]): string[] {
  return names.filter((name) => {
    const mention = new RegExp(`['"\`.]${name}\\b`);
    return !sources.some((text) => mention.test(text));
  });
}

describe('the error catalogue against the server', () => {
  const sources = serverSources();
  const unraised = unraisedNames(Object.keys(ERRORS), sources);

  it('reads the server sources', () => {
    expect(sources.length).toBeGreaterThan(200);
  });

  it('has no code that nothing raises, except those documented as unused', () => {
    expect(unraised.filter((name) => !(name in DOCUMENTED_UNUSED))).toEqual([]);
  });

  it('documents as unused only codes that exist, are not raised, and says why', () => {
    for (const [name, reason] of Object.entries(DOCUMENTED_UNUSED)) {
      expect(name in ERRORS, name).toBe(true);
      expect(unraised, `${name} is raised: remove it from DOCUMENTED_UNUSED`).toContain(name);
      expect(reason!.length, name).toBeGreaterThan(20);
    }
  });

  it('a new code that nothing raises is found', () => {
    expect(unraisedNames([...Object.keys(ERRORS), 'BrandNewRefusal'], sources).filter((name) => !(name in DOCUMENTED_UNUSED))).toEqual(['BrandNewRefusal']);
    expect(unraisedNames(['CustomIndexLimit', 'Imagined'], ["throw new AppError('CustomIndexLimit')"])).toEqual(['Imagined']);
  });
});
