#!/usr/bin/env node
// Builds the server into one module, packages/server/dist/main.mjs, that plain Node runs (docs/decisions/0093): the
// server's own TypeScript and @tritium/shared bundled, every npm package left to node_modules. Running the sources
// through tsx instead kept a second V8 (the module loader's thread) and every module's source map in the server
// process, about 100 MiB of its memory. `npm start` builds first (esbuild takes a second or two), so the bundle
// never lags the sources. Run by hand: node scripts/build-server.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifests = ['package.json', 'packages/server/package.json', 'packages/shared/package.json'];
const external = new Set();
for (const file of manifests) {
  const manifest = JSON.parse(readFileSync(path.join(root, file), 'utf8'));
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) if (!name.startsWith('@tritium/')) external.add(name);
}

export const serverBundle = path.join(root, 'packages/server/dist/main.mjs');

/**
 * Builds the bundle into `outfile` (beside node_modules' tree: the bundle finds its packages from where it lies). The
 * server tests build one of their own per run for the servers they kill (packages/server/test/global-setup.ts).
 */
export async function buildServer(outfile = serverBundle) {
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...external],
    // Stack traces map back to the sources with `node --enable-source-maps` (kept out of the default: it holds the map).
    sourcemap: 'linked',
    logLevel: 'warning',
  };
  await build({ ...common, entryPoints: [path.join(root, 'packages/server/src/main.ts')], outfile });
  // The worker threads of imports and exports (docs/decisions/0106) and of the script sandbox (0118), named after their
  // bundle: the server finds them beside itself.
  for (const [name, entry] of Object.entries(WORKERS)) await build({ ...common, entryPoints: [path.join(root, 'packages/server/src/modules', entry)], outfile: workerOf(outfile, name) });
}

/** The worker threads' entries: data-port/xlsx-worker.ts, script/sandbox-pool.ts and ocr/ocr-runner.ts start them. */
const WORKERS = { 'xlsx-rows': 'data-port/xlsx-rows.worker.ts', 'xlsx-sheet': 'data-port/xlsx-sheet.worker.ts', 'script-sandbox': 'script/sandbox.worker.ts', ocr: 'ocr/ocr.worker.ts' };

/** A worker's module beside a bundle (data-port/xlsx-worker.ts names it the same way). */
export const workerOf = (bundle, name) => bundle.replace(/\.mjs$/, `.${name}.worker.mjs`);

/** Every worker module beside a bundle. */
export const workersOf = (bundle) => Object.keys(WORKERS).map((name) => workerOf(bundle, name));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
