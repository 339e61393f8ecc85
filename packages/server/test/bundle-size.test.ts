import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (scripts/bundle-size.mjs) without type declarations
import { bundleReport, overCeiling, signInFiles } from '../../../scripts/bundle-size.mjs';

// scripts/bundle-size.mjs (issue #26 "Web", docs/decisions/0036) on a made-up build: it must count the entry, its
// static imports and preloads and the sign-in route's modules with theirs, and never a chunk only imported
// dynamically. `npm test` runs it on the real build (scripts/test.mjs); this checks the walk itself.

const dist = mkdtempSync(path.join(os.tmpdir(), 'tritium-bundle-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const ROUTE = ['src/login.tsx'];
const chunk = (file: string, imports: string[] = [], dynamicImports: string[] = []) => ({ file, imports, dynamicImports });
function writeDist(manifest: Record<string, ReturnType<typeof chunk>>, preloads: string[] = []) {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(path.join(dist, '.vite'), { recursive: true });
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
  const links = preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n');
  writeFileSync(path.join(dist, 'index.html'), `<head><script type="module" crossorigin src="/assets/main.js"></script>\n${links}</head>`);
  // Sizes differ so that a wrong set shows in the sums: each file holds its name repeated.
  for (const { file } of Object.values(manifest)) writeFileSync(path.join(dist, file), `${file};`.repeat(file.length * 10));
}

const MANIFEST = {
  'index.html': chunk('assets/main.js', ['_vendor.js', '_ui.js'], ['src/login.tsx', 'src/designer.tsx']),
  '_vendor.js': chunk('assets/vendor.js'),
  '_ui.js': chunk('assets/ui.js', ['_vendor.js']),
  'src/login.tsx': chunk('assets/login.js', ['_form.js', 'index.html']),
  '_form.js': chunk('assets/form.js', ['_ui.js']),
  'src/designer.tsx': chunk('assets/designer.js', ['_canvas.js']),
  '_canvas.js': chunk('assets/canvas.js'),
};

describe('the sign-in bundle measure', () => {
  it('follows static imports from the entry and the route, never dynamic ones', () => {
    writeDist(MANIFEST, ['assets/vendor.js', 'assets/ui.js']);
    const { entry, files } = signInFiles(dist, ROUTE);
    expect([...entry].sort()).toEqual(['assets/main.js', 'assets/ui.js', 'assets/vendor.js']);
    expect([...files].sort()).toEqual(['assets/form.js', 'assets/login.js', 'assets/main.js', 'assets/ui.js', 'assets/vendor.js']);
  });

  it('sums gzip sizes over that set and the whole build, and complains over the ceiling', () => {
    writeDist(MANIFEST, ['assets/vendor.js', 'assets/ui.js']);
    const report = bundleReport(dist, ROUTE);
    expect(report.signIn.files).toBe(5);
    expect(report.total.files).toBe(7);
    expect(report.signIn.gzip).toBeGreaterThan(report.entry.gzip);
    expect(report.total.gzip).toBeGreaterThan(report.signIn.gzip);
    expect(report.signInChunks.map((c: { file: string }) => c.file)).not.toContain('assets/designer.js');
    expect(overCeiling(report, report.signIn.gzip)).toBeUndefined();
    expect(overCeiling(report, report.signIn.gzip - 1)).toMatch(/over its/);
  });

  it('counts a preloaded file even when the manifest walk would miss it', () => {
    writeDist(MANIFEST, ['assets/vendor.js', 'assets/ui.js', 'assets/canvas.js']);
    expect(signInFiles(dist, ROUTE).files).toContain('assets/canvas.js');
  });

  it('refuses a build without a manifest, or a route module the build does not have', () => {
    writeDist(MANIFEST);
    expect(() => signInFiles(dist, ['src/renamed.tsx'])).toThrow(/no chunk src\/renamed.tsx/);
    rmSync(path.join(dist, '.vite/manifest.json'));
    expect(() => signInFiles(dist, ROUTE)).toThrow(/manifest.json is missing/);
  });
});
