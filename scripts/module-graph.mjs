#!/usr/bin/env node
// The module graph check (docs/decisions/0026-module-graph.md). dependency-cruiser reads every import of the three
// packages; this file folds files into modules and answers three kinds of problem:
//   cycle     — files that import each other, directly or round a loop (none allowed);
//   layering  — a module-to-module import that closes a loop of modules, unless it is one of the known back-edges
//               listed in scripts/module-graph.rules.json (that list only shrinks: the graph less it is a DAG);
//   internals — an import from another module of a file that is not that module's public surface: not its index.ts
//               when the folder has one (server and web), a *.routes.ts or *.job.ts (only the app registers those), a test or a test
//               helper, or (server and web modules) a file the rules file does not list as public.
// `npm test` runs it through packages/server/test/module-graph.test.ts. By hand:
//   node scripts/module-graph.mjs            prints the problems (exit 1 if any)
//   node scripts/module-graph.mjs --docs     rewrites the generated table in docs/architecture.md
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cruise } from 'dependency-cruiser';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RULES_FILE = path.join(ROOT, 'scripts/module-graph.rules.json');
export const SOURCE_ROOTS = ['packages/shared/src', 'packages/server/src', 'packages/web/src'];

/** The project's modules: a server domain module or top-level folder, a web feature or top-level folder, a shared folder. */
export function projectModuleOf(file) {
  let m;
  if ((m = file.match(/^packages\/server\/src\/modules\/([^/]+)\//))) return `server/${m[1]}`;
  if ((m = file.match(/^packages\/server\/src\/([^/]+)\//))) return `server/${m[1]}`;
  if (/^packages\/server\/src\/[^/]+$/.test(file)) return 'server/app';
  if ((m = file.match(/^packages\/web\/src\/features\/([^/]+)\//))) return `web/${m[1]}`;
  if ((m = file.match(/^packages\/web\/src\/([^/]+)\//))) return `web/${m[1]}`;
  if (/^packages\/web\/src\/[^/]+$/.test(file)) return 'web/main';
  if ((m = file.match(/^packages\/shared\/src\/([^/]+)\//))) return `shared/${m[1]}`;
  if (/^packages\/shared\/src\/[^/]+$/.test(file)) return 'shared/index';
  return null;
}

/** Test code may reach anywhere: tests, and the helpers only tests import. */
const isTestCode = (file) => /\.test\.tsx?$/.test(file) || /(^|\/)test\//.test(file) || /-fake\.tsx?$/.test(file) || /test-harness\.tsx$/.test(file);

/** Reads the imports below `roots` (relative to `baseDir`): [{ from, to, typeOnly }] between project files. */
export async function readImports(roots, baseDir = ROOT) {
  {
    const result = await cruise(roots, {
      baseDir,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
      tsPreCompilationDeps: true,
      enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
    });
    const edges = [];
    for (const module of result.output.modules) {
      for (const d of module.dependencies) {
        if (d.coreModule || d.couldNotResolve || d.resolved.includes('node_modules')) continue;
        edges.push({ from: module.source, to: d.resolved, typeOnly: d.dependencyTypes.includes('type-only') });
      }
    }
    return { files: result.output.modules.map((m) => m.source).filter((s) => !s.includes('node_modules')), edges };
  }
}

/** Strongly connected components with more than one node (Tarjan). */
function loops(nodes, next) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out;
}

/** One file loop as a readable path a → b → … → a. */
function loopPath(scc, next) {
  const inside = new Set(scc);
  const start = scc[0];
  const seen = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of next(v)) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const pathBack = [];
        for (let x = v; x !== null; x = seen.get(x)) pathBack.unshift(x);
        return [...pathBack, start];
      }
      if (!seen.has(w)) {
        seen.set(w, v);
        queue.push(w);
      }
    }
  }
  return scc;
}

/**
 * The three checks over a read graph. `rules`: { knownBackEdges: ["a -> b"], publicFiles: { module: [file…] } }.
 * Answers { problems: [{ kind, message }], modules: Map<module, Set<module>>, order: [module…] }.
 */
export function checkGraph({ files, edges }, { moduleOf = projectModuleOf, rules = { knownBackEdges: [], publicFiles: {} } } = {}) {
  const problems = [];
  const code = edges.filter((e) => !isTestCode(e.from) && !isTestCode(e.to));

  // 1. File cycles.
  const fileNext = new Map();
  for (const e of code) fileNext.set(e.from, [...(fileNext.get(e.from) ?? []), e.to]);
  const next = (v) => fileNext.get(v) ?? [];
  for (const scc of loops([...fileNext.keys()], next)) problems.push({ kind: 'cycle', message: `import cycle: ${loopPath(scc, next).join(' → ')}` });

  // 2. Module layering: the module graph less the known back-edges must be a DAG.
  const modules = new Map();
  const via = new Map();
  for (const f of files) {
    const m = moduleOf(f);
    if (m && !isTestCode(f) && !modules.has(m)) modules.set(m, new Set());
  }
  for (const e of code) {
    const a = moduleOf(e.from);
    const b = moduleOf(e.to);
    if (!a || !b || a === b) continue;
    if (!modules.has(a)) modules.set(a, new Set());
    if (!modules.has(b)) modules.set(b, new Set());
    modules.get(a).add(b);
    const key = `${a} -> ${b}`;
    if (!via.has(key)) via.set(key, `${e.from} → ${e.to}`);
  }
  const known = new Set(rules.knownBackEdges ?? []);
  for (const k of known) if (!via.has(k)) problems.push({ kind: 'layering', message: `known back-edge ${k} is gone: remove it from scripts/module-graph.rules.json` });
  const forward = (m) => [...(modules.get(m) ?? [])].filter((n) => !known.has(`${m} -> ${n}`));
  for (const scc of loops([...modules.keys()], forward)) {
    const inside = new Set(scc);
    const closing = scc.flatMap((a) => forward(a).filter((b) => inside.has(b)).map((b) => `${a} -> ${b} (${via.get(`${a} -> ${b}`)})`));
    problems.push({ kind: 'layering', message: `modules import each other: ${scc.join(', ')}; imports between them: ${closing.join('; ')}` });
  }

  // 3. Internals: only a module's public surface from outside it.
  const hasIndex = (file) => {
    const dir = path.posix.dirname(file);
    return ['index.ts', 'index.tsx'].map((n) => `${dir}/${n}`).find((f) => files.includes(f));
  };
  for (const e of code) {
    const a = moduleOf(e.from);
    const b = moduleOf(e.to);
    if (!a || !b || a === b) continue;
    const target = e.to;
    const name = path.posix.basename(target);
    const index = hasIndex(target);
    let why;
    // Shared's folders are vocabulary read by deep path (the web build keeps only what it imports): no index rule.
    if (index && index !== target && !b.startsWith('shared/') && !target.startsWith(path.posix.dirname(e.from) + '/')) why = `use ${index}`;
    else if (/\.(routes|job)\.ts$/.test(name) && a !== 'server/app') why = 'routes and jobs are registered by the app only';
    else if (rules.publicFiles?.[b] && !rules.publicFiles[b].includes(relativeTo(b, target))) why = `not in ${b}'s public files (scripts/module-graph.rules.json)`;
    if (why) problems.push({ kind: 'internals', message: `${e.from} reaches into ${target}: ${why}` });
  }

  // Layers, bottom first: a topological order of the module graph less the known back-edges.
  const order = [];
  const placed = new Set();
  const depth = new Map();
  const depthOf = (m, trail = new Set()) => {
    if (depth.has(m)) return depth.get(m);
    if (trail.has(m)) return 0;
    trail.add(m);
    const d = Math.max(-1, ...forward(m).map((n) => depthOf(n, trail))) + 1;
    trail.delete(m);
    depth.set(m, d);
    return d;
  };
  for (const m of [...modules.keys()].sort((x, y) => depthOf(x) - depthOf(y) || x.localeCompare(y))) if (!placed.has(m)) placed.add(m) && order.push(m);
  return { problems, modules, order, depth };
}

/** A module's file named from the module's folder (server/business-data + …/business-data/x.ts → x.ts). */
function relativeTo(module, file) {
  const name = module.split('/').pop();
  const at = file.indexOf(`/${name}/`);
  return at < 0 ? file : file.slice(at + name.length + 2);
}

export function loadRules() {
  return existsSync(RULES_FILE) ? JSON.parse(readFileSync(RULES_FILE, 'utf8')) : { knownBackEdges: [], publicFiles: {} };
}

/** The generated table of docs/architecture.md: each module, its layer, and the modules it may import. */
export function moduleTable({ modules, order, depth }, rules) {
  const known = new Set(rules.knownBackEdges ?? []);
  const rows = order.map((m) => {
    const deps = [...modules.get(m)].sort();
    const down = deps.filter((d) => !known.has(`${m} -> ${d}`));
    const back = deps.filter((d) => known.has(`${m} -> ${d}`));
    const pub = rules.publicFiles?.[m];
    return `| ${m} | ${depth.get(m)} | ${down.join(', ') || '—'} | ${back.join(', ') || '—'} | ${pub ? pub.join(', ') : 'any file'} |`;
  });
  return [
    '| module | layer | imports (below it) | known back-edges (to remove) | public files |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const BEGIN = '<!-- module-table:begin (generated by `node scripts/module-graph.mjs --docs`) -->';
const END = '<!-- module-table:end -->';

async function main() {
  const rules = loadRules();
  const graph = await readImports(SOURCE_ROOTS);
  const result = checkGraph(graph, { rules });
  if (process.argv.includes('--docs')) {
    const file = path.join(ROOT, 'docs/architecture.md');
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    if (start < 0 || end < 0) throw new Error(`docs/architecture.md lacks the markers ${BEGIN} … ${END}`);
    writeFileSync(file, `${text.slice(0, start + BEGIN.length)}\n${moduleTable(result, rules)}\n${text.slice(end)}`);
    console.log('docs/architecture.md: module table rewritten');
  }
  if (process.argv.includes('--public')) {
    // Prints each module's files imported from outside it today (a starting list for publicFiles).
    const pub = {};
    for (const e of graph.edges) {
      const a = projectModuleOf(e.from);
      const b = projectModuleOf(e.to);
      if (!a || !b || a === b || isTestCode(e.from)) continue;
      (pub[b] ??= new Set()).add(relativeTo(b, e.to));
    }
    console.log(JSON.stringify(Object.fromEntries(Object.entries(pub).sort().map(([k, v]) => [k, [...v].sort()])), null, 2));
  }
  for (const p of result.problems) console.log(`${p.kind}: ${p.message}`);
  console.log(`${result.modules.size} modules, ${graph.edges.length} imports, ${result.problems.length} problems`);
  process.exitCode = result.problems.length ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
