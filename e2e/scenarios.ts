import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe } from 'vitest';
import { releaseBrowser } from './fixtures.ts';

/**
 * Every browser scenario (`*.e2e.ts` beside this file) as one test file, so that Vitest gives them one worker from the
 * start of the run, one scenario after another, while the other worker takes the server and web files
 * (docs/testing.md "Browser scenarios"). Separate files with file parallelism off ran in a group of their own after
 * every other file, with one worker idle.
 *
 * Each scenario is a describe block named after its file; the file's own hooks and tests land inside it, because
 * Vitest collects an async describe with that block as the current suite. Run one scenario with
 * `npx vitest run --project e2e -t data-port`.
 */
const dir = path.dirname(fileURLToPath(import.meta.url));
const scenarios = readdirSync(dir).filter((name) => name.endsWith('.e2e.ts')).sort();

for (const file of scenarios) {
  describe(file, async () => {
    await import(path.join(dir, file));
    // The scenario's contexts go with its connection to the shared browser; the next scenario connects afresh.
    afterAll(releaseBrowser);
  });
}
