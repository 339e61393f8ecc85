import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// A new data folder is made by PGlite's initdb, whose memory (about 400 MiB at its peak) stays with the process that
// ran it: the WebAssembly memory until the collector happens to run, which a quiet server may not do for hours, and
// 150–175 MiB of native memory for good, even when a worker thread runs it and ends (docs/decisions/0102). The folder
// is made by a short-lived Node process instead; the server then opens it as it opens one that already exists.

const makeFolder = `
const { PGlite } = await import(process.env.PGLITE_MODULE);
const db = await PGlite.create({ dataDir: process.env.PGLITE_DATA_DIR });
await db.close();
`;

/** Makes PGlite's data folder in a process of its own when it does not exist yet; nothing when it does. */
export async function preparePgliteFolder(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const child = spawn(process.execPath, ['--input-type=module', '-e', makeFolder], {
    env: { ...process.env, PGLITE_MODULE: import.meta.resolve('@electric-sql/pglite'), PGLITE_DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (errors = (errors + text).slice(-4000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`PGlite could not make its data folder ${dataDir} (exit ${code}): ${errors}`);
}
