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
// Run the TypeScript server in this process, so the data-folder lock holds this process's pid.
const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'packages/server/src/main.ts'));
