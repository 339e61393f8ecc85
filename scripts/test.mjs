#!/usr/bin/env node
// `npm test`: builds the web app and runs every Vitest project (shared, server on PGlite — and on PostgreSQL when
// TEST_DATABASE_URL is set —, web, and the browser scenarios) while every package is type-checked; ends with the line
// `N passed, N failed`. A type error, a failed build or a sign-in page whose JavaScript outgrew its ceiling
// (scripts/bundle-size.mjs, read from the build's output in milliseconds) counts as one failed test each, so none can
// land unseen.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });

/** Runs one command with the terminal's output; answers its exit status. */
function run(command, args, cwd = root) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit', env: process.env });
    child.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
    child.on('error', () => resolve(1));
  });
}

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/**
 * The packages' type checks one after another (the same list as `npm run typecheck`), beside the build and tests, with
 * TypeScript 7's native compiler (package `typescript-7`, docs/decisions/0086); `typescript` stays at 6 for the tools
 * that read sources through its JavaScript API (dependency-cruiser in the module graph check).
 */
const TSC = path.join(root, 'node_modules/typescript-7/bin/tsc');
async function typecheck() {
  const started = Date.now();
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
  const projects = [...scripts.typecheck.matchAll(/tsc -p (\S+)/g)].map((m) => m[1]);
  const failed = [];
  for (const project of projects) if ((await run(process.execPath, [TSC, '-p', project])) !== 0) failed.push(project);
  console.log(failed.length ? `typecheck failed: ${failed.join(', ')} (${seconds(started)})` : `typecheck passed (${seconds(started)})`);
  return failed.length === 0;
}

async function build() {
  const started = Date.now();
  const status = await run(bin('vite'), ['build', '--logLevel', 'warn'], path.join(root, 'packages/web'));
  console.log(status === 0 ? `web build done (${seconds(started)})` : 'web build failed');
  return status === 0;
}

/** The sign-in page's JavaScript against its ceiling (issue #26), from the build just made. */
async function signInBundleFits() {
  const { bundleReport, overCeiling } = await import('./bundle-size.mjs');
  try {
    const report = bundleReport();
    const complaint = overCeiling(report);
    console.log(complaint ?? `sign-in page JS ${(report.signIn.gzip / 1000).toFixed(1)} kB gzip, within its ${(report.ceiling / 1000).toFixed(1)} kB ceiling`);
    return !complaint;
  } catch (error) {
    console.log(`sign-in bundle check failed: ${error.message}`);
    return false;
  }
}

// The type checks go on while the tests run (the tests need the build, not the type checks): their few minutes of
// one core overlap the tests' waits on PostgreSQL and the browser.
const typesChecked = typecheck();
const built = await build();

const fits = built && (await signInBundleFits());

let passed = 0;
let failed = built ? (fits ? 0 : 1) : 1;
let status = built && fits ? 0 : 1;
if (built) {
  const jsonFile = path.join(results, 'vitest.json');
  rmSync(jsonFile, { force: true }); // a run that writes no report must not be read as the last one's
  const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`, ...process.argv.slice(2)];
  status = (await run(bin('vitest'), args)) || status;
  try {
    const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
    // A suite that failed to load counts as a failure even when none of its tests ran.
    const failedSuites = report.testResults.filter((s) => s.status === 'failed' && s.assertionResults.every((a) => a.status !== 'failed')).length;
    passed = report.numPassedTests;
    failed += report.numFailedTests + failedSuites;
    if (report.numTotalTests === 0) failed += 1;
  } catch {
    failed += 1;
  }
}
if (!(await typesChecked)) {
  failed += 1;
  status = 1;
}
const summary = `${passed} passed, ${failed} failed`;
writeFileSync(path.join(results, 'summary.txt'), `${summary}\n`);
console.log(summary);
process.exit(status === 0 && failed === 0 ? 0 : 1);
