import path from 'node:path';
import { parseArgs } from 'node:util';
import { stat } from 'node:fs/promises';
import { loadConfig } from './config.ts';
import { openBackupFile, restoreEngineFile, restorePlatform } from './modules/backup/index.ts';
import { openInstallation, progressPrinter, reportFailure } from './modules/backup/operator.ts';

// `npm run restore -- --file <engine file> [--as <new code>]`: one engine into this installation, under its own code
// (which must be free) or as a new engine beside the others.
// `npm run restore -- --file <folder or its platform.tar.gz>`: a whole platform's backup into an empty installation.
// On the embedded database the server must be stopped; on PostgreSQL a running server sees the engine once it is
// complete. A restore that fails leaves nothing behind (docs/deploy.md "Backups", docs/decisions/0127).

const usage = 'npm run restore -- --file <file.tar.gz | folder> [--as <newCode>]';
const { values } = parseArgs({ options: { file: { type: 'string' }, as: { type: 'string' } } });
if (!values.file) {
  console.error(usage);
  process.exit(2);
}
const file = path.resolve(values.file);

// What the path holds decides what is restored: a folder or a platform file is a whole platform.
const isFolder = await stat(file).then((s) => s.isDirectory(), () => false);
const kind = isFolder
  ? 'platform'
  : await openBackupFile(file).then(
      (b) => (b.close(), b.header.kind),
      (error) => {
        reportFailure(error);
        process.exit(1);
      },
    );
if (kind === 'platform' && values.as) {
  console.error(`--as applies to one engine's file, not to a whole platform.\n${usage}`);
  process.exit(2);
}

const installation = await openInstallation(loadConfig(), { migrate: true }).catch((error) => {
  reportFailure(error);
  process.exit(1);
});
try {
  const onProgress = progressPrinter();
  const db = installation.database.db;
  const store = installation.store;
  if (kind === 'platform') {
    const done = await restorePlatform({ db, store, path: file, onProgress });
    for (const e of done.engines) console.log(`${e.engineCode}: ${e.tables} tables, ${e.rows} rows, ${e.files} files`);
    console.log(`Done: ${done.engines.length} engines and ${done.platformRows} platform rows restored.`);
  } else {
    const done = await restoreEngineFile({ db, store, file, as: values.as, onProgress });
    console.log(`Done: engine ${done.engineCode}${done.from !== done.engineCode ? ` (a copy of ${done.from})` : ''}: ${done.tables} tables, ${done.rows} rows, ${done.files} files.`);
    if (done.skippedPlatformRows) console.log(`${done.skippedPlatformRows} short links or invitation links were left out: the target already has them (the original's).`);
  }
} catch (error) {
  reportFailure(error);
} finally {
  await installation.close();
}
