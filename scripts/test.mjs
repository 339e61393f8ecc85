#!/usr/bin/env node
// `npm test`: builds the web app, runs every Vitest project (shared, server on PGlite — and on PostgreSQL when
// TEST_DATABASE_URL is set —, web, and the browser scenarios), and ends with the line `N passed, N failed`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });

const build = spawnSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: path.join(root, 'packages/web'), stdio: 'inherit' });
if (build.status !== 0) {
  console.error('web build failed');
  writeFileSync(path.join(results, 'summary.txt'), '0 passed, 1 failed\n');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const jsonFile = path.join(results, 'vitest.json');
const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`, ...process.argv.slice(2)];
const run = spawnSync(bin('vitest'), args, { cwd: root, stdio: 'inherit', env: process.env });

let summary;
try {
  const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
  // A suite that failed to load counts as a failure even when none of its tests ran.
  const failedSuites = report.testResults.filter((s) => s.status === 'failed' && s.assertionResults.every((a) => a.status !== 'failed')).length;
  summary = `${report.numPassedTests} passed, ${report.numFailedTests + failedSuites} failed`;
  if (report.numTotalTests === 0) summary = '0 passed, 1 failed';
} catch {
  summary = '0 passed, 1 failed';
}
writeFileSync(path.join(results, 'summary.txt'), `${summary}\n`);
console.log(summary);
process.exit(run.status === 0 && summary.endsWith(' 0 failed') ? 0 : 1);
