import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { backupEngine, backupPlatform } from './modules/backup/index.ts';
import { openInstallation, progressPrinter, reportFailure } from './modules/backup/operator.ts';

// `npm run backup -- --engine <code> --out <file>`: one engine (organisation) to one file.
// `npm run backup -- --all [--out <folder>]`: every engine and the platform tables, one file each, into a folder.
// Works on the installation of the usual settings (TRITIUM_DATA_DIR, DATABASE_URL, TRITIUM_FILE_STORE, …). On the
// embedded database the server must be stopped (the data folder's lock); on PostgreSQL it may run. Everything is read
// from one snapshot. The file's format: docs/deploy.md "Backups", docs/decisions/0127.

const usage = 'npm run backup -- --engine <code> --out <file.tar.gz>\nnpm run backup -- --all [--out <folder>]';
const { values } = parseArgs({ options: { engine: { type: 'string' }, out: { type: 'string' }, all: { type: 'boolean', default: false } } });
if (!values.all === !values.engine || (values.engine && !values.out)) {
  console.error(usage);
  process.exit(2);
}

const installation = await openInstallation(loadConfig(), { migrate: false }).catch((error) => {
  reportFailure(error);
  process.exit(1);
});
try {
  const onProgress = progressPrinter();
  if (values.engine) {
    const file = path.resolve(values.out!);
    const done = await backupEngine({ db: installation.database.db, store: installation.store, engineCode: values.engine, file, onProgress });
    console.log(`Done: ${file} (${(done.size / 1024 / 1024).toFixed(1)} MB, sha256 ${done.sha256}): ${done.tables} tables, ${done.rows} rows, ${done.files} files.`);
    if (done.missingFiles) console.log(`${done.missingFiles} files named by the engine were not in the file store; the manifest lists them.`);
  } else {
    const folder = path.resolve(values.out ?? `tritium-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const done = await backupPlatform({ db: installation.database.db, store: installation.store, folder, onProgress });
    for (const e of done.engines) console.log(`${e.file}: ${e.rows} rows, ${e.files} files${e.missingFiles ? `, ${e.missingFiles} missing from the store` : ''}`);
    console.log(`Done: ${folder} (platform.tar.gz and ${done.engines.length} engine files).`);
  }
} catch (error) {
  reportFailure(error);
} finally {
  await installation.close();
}
