import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// One test command, several projects (README "Test", docs/testing.md). The server suite runs on PGlite; on PostgreSQL
// (server-pg, when TEST_DATABASE_URL names a server) it runs the files tagged to run there (serverTestDatabases).

const root = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.join(root, 'packages/server');
const SERVER_TESTS = ['src/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * "Runs on both databases" (docs/testing.md): every server test file runs on PGlite (project server). A file runs on
 * PostgreSQL too (project server-pg) when a line near its top says `// test-databases: both — <why>`: what it tests can
 * differ between the two (SQL shape, locking, types, transactions, LISTEN). `// test-databases: postgres — <why>` runs it
 * on PostgreSQL only, when there is one (what it tests does not depend on the database, and PostgreSQL is production's).
 * The list is the files' own lines, reviewed with each file.
 */
type TestDatabases = 'pglite' | 'both' | 'postgres';
function serverTestDatabases(): Map<string, TestDatabases> {
  const files = new Map<string, TestDatabases>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.test.ts')) {
        const tag = /^\/\/ test-databases: (both|postgres) — /m.exec(readFileSync(full, 'utf8').slice(0, 4000));
        files.set(path.relative(serverRoot, full), (tag?.[1] as TestDatabases | undefined) ?? 'pglite');
      }
    }
  };
  for (const dir of ['src', 'test']) walk(path.join(serverRoot, dir));
  return files;
}
const filesOn = (kinds: TestDatabases[]) => [...serverTestDatabases()].filter(([, k]) => kinds.includes(k)).map(([f]) => f);

const serverProject = (name: string, env: Record<string, string>, include: string[] = SERVER_TESTS, exclude: string[] = []) => ({
  test: {
    name,
    root: 'packages/server',
    include,
    exclude: ['**/node_modules/**', ...exclude],
    globalSetup: ['test/global-setup.ts'],
    // Registering hundreds of people: new password hashes at scrypt's cost 2^10 (README, TRITIUM_SCRYPT_N).
    env: { TRITIUM_SCRYPT_N: '1024', ...env },
    testTimeout: 30_000,
    // Generous: a file's beforeAll registers engines and publishes forms, slow on a machine shared by many runs.
    hookTimeout: 180_000,
    pool: 'forks' as const,
    // Files share a worker's module cache: the app's ~5 s of imports are paid once a worker, not once a file
    // (docs/testing.md lists what this asks of test files: no module-level afterAll in helpers, close what you open).
    isolate: false,
  },
});

const webRoot = path.join(root, 'packages/web');
const WEB_TESTS = ['src/**/*.test.{ts,tsx}'];
/** Web test files that replace a module with vi.mock: they need a module cache of their own (isolate on). */
function filesMocking(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.test\.tsx?$/.test(entry.name) && /\bvi\.(do)?mock\(/.test(readFileSync(full, 'utf8'))) files.push(path.relative(webRoot, full));
    }
  };
  walk(path.join(webRoot, 'src'));
  return files;
}

/**
 * The web files run in happy-dom. Most share a worker's module cache (isolate off: React, antd and the app's modules are
 * imported once a worker, not once a file; setup.ts resets the DOM, storage, cookies, locale and mocks after each test).
 * A file that replaces a module with vi.mock runs isolated (web-mocked): a module already in a shared cache would not
 * be replaced, and its replacement would leak into the next file.
 */
const webProject = (name: string, isolate: boolean, include: string[], exclude: string[] = []) => ({
  plugins: [react()],
  test: {
    name,
    root: 'packages/web',
    include,
    exclude: ['**/node_modules/**', ...exclude],
    environment: 'happy-dom',
    setupFiles: ['src/test/setup.ts'],
    isolate,
    // A guard against a hung test, not a measure of speed: the designer's longest tests take 10–20 s of clicks in
    // happy-dom while the browser scenarios share the two cores (docs/testing.md).
    testTimeout: 60_000,
  },
});

/** A render React's scheduler started after the test file's window was torn down. */
function isAfterTeardownRender(error: { name?: string; message?: string; stack?: string }): boolean {
  return error.name === 'ReferenceError' && error.message === 'window is not defined' && (!error.stack || /react-dom|scheduler/.test(error.stack));
}

/**
 * The browser scenarios' file first, then each project's files together, longest first within it. A worker that
 * finishes a file is kept for the next only when the next file is of the same project (Vitest's pool): Vitest's own
 * order, longest first across projects, interleaved server, server-pg and web files, and every change of project
 * started a new worker that imported the app again.
 */
const PROJECT_ORDER = ['e2e', 'server-pg', 'server', 'web', 'web-mocked', 'shared'];
class ScenariosFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => PROJECT_ORDER.indexOf(f.project.name);
    return PROJECT_ORDER.flatMap((_, i) => sorted.filter((f) => rank(f) === i)).concat(sorted.filter((f) => rank(f) === -1));
  }
}

const projects: any[] = [
  { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
  // With a PostgreSQL, the files tagged `postgres` leave PGlite's project for server-pg; without one they run here.
  serverProject('server', { TEST_DB_KIND: 'pglite' }, SERVER_TESTS, process.env.TEST_DATABASE_URL ? filesOn(['postgres']) : []),
  webProject('web', false, WEB_TESTS, filesMocking()),
  webProject('web-mocked', true, filesMocking()),
  {
    test: {
      name: 'e2e',
      root: 'e2e',
      // One file, scenarios.ts, that holds every *.e2e.ts: one worker runs the scenarios one after another from the
      // start while the other takes the rest (docs/testing.md). Not `fileParallelism: false`: a project limited to one
      // worker runs in a group of its own after every other file.
      include: ['scenarios.ts'],
      globalSetup: ['global-setup.ts'],
      testTimeout: 120_000,
      hookTimeout: 180_000,
      // A step waits for what the page shows, not for a time: while the server suites share the two cores a page can
      // take seconds to answer, so expect.poll waits up to 15 s by default (vitest's own default is 1 s).
      expect: { poll: { timeout: 15_000, interval: 100 } },
    },
  },
];
if (process.env.TEST_DATABASE_URL) projects.splice(2, 0, serverProject('server-pg', { TEST_DB_KIND: 'postgres' }, filesOn(['both', 'postgres'])));

export default defineConfig({
  test: {
    projects,
    // Two workers on two cores (vitest's default is one fewer than the cores): much of a server test's time is
    // spent waiting on PostgreSQL or the platform process, not on this process's core.
    maxWorkers: 2,
    // The browser scenarios first (their one file is the longest of the run), then the longest-known files.
    sequence: { sequencer: ScenariosFirst },
    // React's scheduler can run a render it queued during a web file's last clean-up after happy-dom's window is gone
    // (setup.ts lets it run first, which is not always enough on a loaded machine): "window is not defined" from there
    // is the environment's end, not a test's failure. Every other unhandled error still fails the run.
    onUnhandledError: (error) => !isAfterTeardownRender(error),
  },
});
