import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (scripts/module-graph.mjs) without type declarations
import { checkGraph, loadRules, readImports, ROOT, SOURCE_ROOTS } from '../../../scripts/module-graph.mjs';

// The module graph check (docs/decisions/0026-module-graph.md) as part of `npm test`: the project's own graph has no
// import cycle, no module loop beyond the known back-edges, and no reach into another module's internals; and the
// checker itself reports each kind on a fixture made to break them.

type Problem = { kind: 'cycle' | 'layering' | 'internals'; message: string };
const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/module-graph');
const fixtureModuleOf = (file: string) => file.match(/^src\/modules\/([^/]+)\//)?.[1] ?? null;

describe('module graph', () => {
  it('has no import cycle, no new module loop and no reach into internals', async () => {
    const graph = await readImports(SOURCE_ROOTS, ROOT);
    expect(graph.edges.length).toBeGreaterThan(1000);
    const { problems } = checkGraph(graph, { rules: loadRules() }) as { problems: Problem[] };
    expect(problems.map((p) => `${p.kind}: ${p.message}`)).toEqual([]);
  }, 120_000);

  it('reports a file cycle, the module loop it makes, and reaches past a public file or an index', async () => {
    const graph = await readImports(['src'], fixture);
    const rules = { knownBackEdges: [], publicFiles: { delta: ['delta.service.ts'] } };
    const { problems } = checkGraph(graph, { moduleOf: fixtureModuleOf, rules }) as { problems: Problem[] };
    const of = (kind: Problem['kind']) => problems.filter((p) => p.kind === kind).map((p) => p.message);
    expect(of('cycle')).toHaveLength(1);
    expect(of('cycle')[0]).toMatch(/alpha\.service\.ts → .*beta\.service\.ts → .*alpha\.service\.ts|beta\.service\.ts → .*alpha\.service\.ts → .*beta\.service\.ts/);
    expect(of('layering')).toHaveLength(1);
    expect(of('layering')[0]).toContain('alpha, beta');
    expect(of('internals').sort()).toEqual([
      expect.stringMatching(/gamma\.service\.ts reaches into src\/modules\/delta\/delta\.repo\.ts: not in delta's public files/),
      expect.stringMatching(/gamma\.service\.ts reaches into src\/modules\/epsilon\/inner\.ts: use src\/modules\/epsilon\/index\.ts/),
    ]);
  }, 60_000);

  it('lets a known back-edge stand, and says when one has gone', async () => {
    const graph = await readImports(['src'], fixture);
    const rules = { knownBackEdges: ['beta -> alpha', 'delta -> gamma'], publicFiles: {} };
    const { problems } = checkGraph(graph, { moduleOf: fixtureModuleOf, rules }) as { problems: Problem[] };
    const layering = problems.filter((p) => p.kind === 'layering').map((p) => p.message);
    expect(layering).toEqual([expect.stringContaining('known back-edge delta -> gamma is gone')]);
  }, 60_000);

  it('has no source file over 500 lines unless its first lines say why', () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.name === 'node_modules' || e.name === 'dist' || e.name === 'fixtures' ? [] : e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    const files = ['packages', 'e2e', 'bench', 'scripts'].flatMap((d) => walk(path.join(ROOT, d))).filter((f) => /\.(ts|tsx|mjs)$/.test(f));
    expect(files.length).toBeGreaterThan(300);
    const long = files
      .map((f) => ({ f: path.relative(ROOT, f), lines: readFileSync(f, 'utf8').split('\n') }))
      .filter(({ lines }) => lines.length > 500 && !/500 lines/i.test(lines.slice(0, 3).join(' ')))
      .map(({ f, lines }) => `${f}: ${lines.length} lines`);
    expect(long).toEqual([]);
  });
});
