import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { contracts } from '@tritium/shared';
import { knownMigrations } from '../../db/migrate.ts';
import { AppError } from '../../lib/app-error.ts';
import { TarFormatError, TarWriter, readTar } from '../backup/index.ts';

// The app package file (docs/decisions/0130): a gzip-compressed tar (the backup's own writer and reader) of
// `manifest.json` first — format name and version, counts, each entry's size and SHA-256 —, then `package.json` (the
// AppPackage document) and `files/<sha256>` for each file of the sample data. Reading checks, before anything is
// written anywhere: the size limit, the format version, every entry's checksum, the package's schema, the platform
// migrations it needs, and that each file it names is there.

export const PACKAGE_FORMAT = 'tritium-app-package';
/** The largest package file accepted (compressed), and the largest it may unpack to (tests lower them). */
export const packageLimits = { maxBytes: 200 * 1024 * 1024, maxUnpacked: 1024 * 1024 * 1024 };

export interface PackageManifest {
  format: string;
  formatVersion: number;
  counts: { forms: number; nodes: number; sampleRecords: number; files: number };
  entries: { name: string; size: number; sha256: string }[];
}

export interface PackageContent {
  pkg: contracts.AppPackage;
  /** File bytes by SHA-256. */
  files: Map<string, Buffer>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export function countsOf(pkg: contracts.AppPackage): PackageManifest['counts'] {
  return { forms: pkg.forms.length, nodes: pkg.nodes.length, sampleRecords: pkg.forms.reduce((n, f) => n + f.samples.length, 0), files: pkg.files.length };
}

/** The file's bytes for a package and its files. */
export async function writePackageFile(content: PackageContent): Promise<Buffer> {
  const entries: { name: string; data: Buffer }[] = [{ name: 'package.json', data: Buffer.from(JSON.stringify(content.pkg)) }];
  for (const f of content.pkg.files) {
    const data = content.files.get(f.sha256);
    if (!data) throw new Error(`file ${f.sha256} of the package is missing`);
    entries.push({ name: `files/${f.sha256}`, data });
  }
  const manifest: PackageManifest = {
    format: PACKAGE_FORMAT,
    formatVersion: content.pkg.formatVersion,
    counts: countsOf(content.pkg),
    entries: entries.map((e) => ({ name: e.name, size: e.data.length, sha256: sha256(e.data) })),
  };
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const tar = new TarWriter(out);
  await tar.addBuffer('manifest.json', Buffer.from(JSON.stringify(manifest)));
  for (const e of entries) await tar.addBuffer(e.name, e.data);
  await tar.finish();
  out.end();
  return gzipSync(Buffer.concat(chunks));
}

const notPackage = (reason: string) => new AppError('AppPackageNotAPackage', { detail: { reason } });

function parseJson(data: Buffer, what: string): unknown {
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    throw notPackage(`${what} 不是 JSON`);
  }
}

async function* once(data: Buffer): AsyncGenerator<Buffer> {
  yield data;
}

/** Reads and checks a package file; every refusal is a catalogue error with its reason, and nothing was written. */
export async function readPackageFile(bytes: Buffer): Promise<PackageContent> {
  if (bytes.length > packageLimits.maxBytes) throw new AppError('AppPackageTooLarge', { detail: { maxBytes: packageLimits.maxBytes } });
  let tarBytes: Buffer;
  try {
    tarBytes = gunzipSync(bytes, { maxOutputLength: packageLimits.maxUnpacked });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new AppError('AppPackageTooLarge', { detail: { maxBytes: packageLimits.maxUnpacked } });
    throw notPackage('不是 gzip 压缩文件');
  }
  const read = new Map<string, Buffer>();
  let manifest: PackageManifest | undefined;
  try {
    for await (const entry of readTar(once(tarBytes))) {
      const parts: Buffer[] = [];
      for await (const c of entry.body) parts.push(c);
      const data = Buffer.concat(parts);
      if (!manifest) {
        if (entry.name !== 'manifest.json') throw notPackage('第一个条目不是 manifest.json');
        manifest = checkManifest(parseJson(data, 'manifest.json'));
        continue;
      }
      const listed = manifest.entries.find((e) => e.name === entry.name);
      if (!listed) throw notPackage(`条目 ${entry.name} 不在清单中`);
      if (listed.size !== data.length || listed.sha256 !== sha256(data)) throw new AppError('AppPackageTampered', { detail: { entry: entry.name } });
      read.set(entry.name, data);
    }
  } catch (error) {
    if (error instanceof TarFormatError) throw notPackage(error.zh);
    throw error;
  }
  if (!manifest) throw notPackage('文件是空的');
  for (const e of manifest.entries) if (!read.has(e.name)) throw new AppError('AppPackageTampered', { detail: { entry: e.name } });
  const parsed = contracts.AppPackage.safeParse(parseJson(read.get('package.json') ?? Buffer.alloc(0), 'package.json'));
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 50).map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new AppError('AppPackageInvalid', { detail: { issues } });
  }
  const pkg = parsed.data;
  if (pkg.formatVersion !== manifest.formatVersion) throw new AppError('AppPackageTampered', { detail: { entry: 'package.json' } });
  checkSchemaVersion(pkg);
  const files = new Map<string, Buffer>();
  for (const f of pkg.files) {
    const data = read.get(`files/${f.sha256}`);
    if (!data) throw new AppError('AppPackageTampered', { detail: { entry: `files/${f.sha256}` } });
    files.set(f.sha256, data);
  }
  return { pkg, files };
}

function checkManifest(value: unknown): PackageManifest {
  const m = value as Partial<PackageManifest> | null;
  if (!m || typeof m !== 'object' || m.format !== PACKAGE_FORMAT || typeof m.formatVersion !== 'number' || !Array.isArray(m.entries)) throw notPackage('清单不是应用包的清单');
  if (m.formatVersion > contracts.APP_PACKAGE_FORMAT_VERSION) {
    throw new AppError('AppPackageNewerFormat', { detail: { formatVersion: m.formatVersion, supported: contracts.APP_PACKAGE_FORMAT_VERSION } });
  }
  for (const e of m.entries) {
    if (!e || typeof e.name !== 'string' || typeof e.size !== 'number' || typeof e.sha256 !== 'string') throw notPackage('清单的条目不正确');
  }
  return m as PackageManifest;
}

/** The platform must have every migration the package was made under (names sort by time). */
function checkSchemaVersion(pkg: contracts.AppPackage): void {
  const known = knownMigrations();
  for (const [kind, needed] of [['platform', pkg.schemaVersion.platform], ['engine', pkg.schemaVersion.engine]] as const) {
    const list = known[kind];
    const newest = list[list.length - 1] ?? '';
    if (needed && !list.includes(needed) && needed > newest) throw new AppError('AppPackageNewerSchema', { detail: { migration: needed } });
  }
}

/** The schema version this platform writes into packages. */
export function currentSchemaVersion(): contracts.AppPackage['schemaVersion'] {
  const known = knownMigrations();
  return { platform: known.platform.at(-1) ?? '', engine: known.engine.at(-1) ?? '' };
}

export { sha256 };
