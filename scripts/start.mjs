#!/usr/bin/env node
// `npm start`: builds the web app when it is missing, then runs the server (web app and API on one port).
// `npm start -- --build` rebuilds the web app first.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDist = path.join(root, 'packages/web/dist');

if (process.argv.includes('--build') || !existsSync(path.join(webDist, 'index.html'))) {
  console.log('正在构建前端 / building the web app…');
  const vite = path.join(root, 'node_modules/.bin/vite');
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: path.join(root, 'packages/web'), stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

process.env.TRITIUM_WEB_DIST ??= webDist;
// The server is built into one module that plain Node runs (docs/decisions/0093: about 100 MiB less than running
// the sources through tsx), every start, so it never lags the sources; it runs in this process, so the data-folder
// lock holds this process's pid.
const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
await import(path.join(root, 'packages/server/dist/main.mjs'));
