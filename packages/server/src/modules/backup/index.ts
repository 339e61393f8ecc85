// Backup and restore of engines and of the whole platform (docs/decisions/0127; docs/deploy.md "Backups").
export { backupEngine, restoreEngineFile } from './backup.service.ts';
export { backupPlatform, restorePlatform, PLATFORM_FILE } from './platform-backup.ts';
export { openBackupFile } from './backup-file.ts';
export type { BackupProgress } from './engine-backup.ts';
export type { RestoreProgress } from './restore-loader.ts';
export { TarWriter, readTar, TarFormatError, type TarEntry } from './tar.ts';
