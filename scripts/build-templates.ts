/**
 * Builds the built-in templates (issue 46; docs/decisions/0132) into packages/server/templates/: a scratch PGlite
 * database in memory, migrated; one engine registered through the API; each template's builder run in it through the
 * designers' services (its sample records saved as a person saves them); each app then packaged with its sample data
 * by the app package layer (modules/app-package) and written as `<code>.tritium-app.tar.gz`, with its manifest
 * `<code>.template.json` beside it (the shape modules/template/builtin-registry.ts reads at start). The manifest's
 * pictures are the files `pictures/<code>-<n>.<png|jpg|jpeg|webp|gif>` of that folder, with those the manifest named
 * already and that are still there (at most 6).
 *
 * Run: npm run templates:build -- [code …]   (no codes: all six)
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserAuthType } from '../packages/shared/src/constants/org.ts';
import { openDatabase, engineDb } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { createLocalFileStore } from '../packages/server/src/modules/files/file-store.ts';
import { buildAppPackage } from '../packages/server/src/modules/app-package/index.ts';
import { packageBytes } from '../packages/server/src/modules/app-package/package-store.ts';
import { BuiltInManifest } from '../packages/server/src/modules/template/builtin-registry.ts';
import { BUILT_IN_TEMPLATES, buildBuiltInTemplate, type TemplateBuildContext } from '../packages/server/src/modules/template-builtin/index.ts';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/server/templates');
const CODE = '246810';
const PACKAGE_EXT = '.tritium-app.tar.gz';
const PICTURE = /\.(png|jpe?g|webp|gif)$/i;
const MAX_PICTURES = 6;

/** The template's pictures: those its manifest named (still there), then `pictures/<code>-<n>.*` in number order. */
function picturesOf(code: string): string[] {
  const named: string[] = [];
  const manifest = path.join(OUT, `${code}.template.json`);
  if (existsSync(manifest)) {
    const before = JSON.parse(readFileSync(manifest, 'utf8')) as { pictures?: unknown };
    if (Array.isArray(before.pictures)) named.push(...before.pictures.filter((p): p is string => typeof p === 'string' && existsSync(path.join(OUT, p))));
  }
  const folder = path.join(OUT, 'pictures');
  const found = existsSync(folder)
    ? readdirSync(folder)
        .filter((f) => f.startsWith(`${code}-`) && PICTURE.test(f))
        .sort((x, y) => x.localeCompare(y, 'en', { numeric: true }))
        .map((f) => `pictures/${f}`)
    : [];
  return [...new Set([...named, ...found])].slice(0, MAX_PICTURES);
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((code) => !BUILT_IN_TEMPLATES.some((t) => t.code === code));
  if (unknown.length) throw new Error(`unknown template codes: ${unknown.join(', ')} (known: ${BUILT_IN_TEMPLATES.map((t) => t.code).join(', ')})`);
  const templates = wanted.length ? BUILT_IN_TEMPLATES.filter((t) => wanted.includes(t.code)) : BUILT_IN_TEMPLATES;

  const scratch = mkdtempSync(path.join(tmpdir(), 'tritium-templates-'));
  const store = createLocalFileStore(path.join(scratch, 'files'));
  const database = await openDatabase({});
  try {
    await migratePlatform(database.db);
    const config = { ...loadConfig({}), dataDir: scratch, rateLimit: false, fixedVerifyCode: CODE, jwtSecret: 'templates-secret-0123456789abcdef', secretKey: 'templates-key-0123456789abcdef' };
    const app = await buildApp({ config, db: database.db, logger: false, listen: database.listen, fileStore: store });
    await app.ready();
    try {
      const mobile = '13600000046';
      await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'register' } });
      const reg = (await app.inject({ method: 'POST', url: '/v1/register/engine', payload: { mobile, code: CODE, password: 'Passw0rd1', userName: '模板管理员', engineName: '模板示例有限公司', scale: '1-20' } })).json() as any;
      if (!reg.successful) throw new Error(`register failed: ${JSON.stringify(reg)}`);
      const engineCode = reg.data.engineCode as string;
      const admin = await engineDb(database.db, engineCode).selectFrom('org_users').select(['id', 'auth_type']).where('auth_type', '=', UserAuthType.Administrator).executeTakeFirstOrThrow();
      const ctx: TemplateBuildContext = { db: database.db, engineCode, userId: admin.id, authType: admin.auth_type, files: { store }, today: new Date() };
      mkdirSync(OUT, { recursive: true });
      for (const template of templates) {
        const started = performance.now();
        const built = await buildBuiltInTemplate(ctx, template.code);
        const buildMs = performance.now() - started;
        const packed = await buildAppPackage({ db: database.db, store }, engineCode, built.appCode, { sampleData: true });
        const bytes = await packageBytes({ db: database.db, store }, packed.packageId, engineCode);
        const file = `${template.code}${PACKAGE_EXT}`;
        writeFileSync(path.join(OUT, file), bytes);
        const manifest = BuiltInManifest.parse({
          code: template.code, name: template.name, category: template.category, summary: template.summary, description: template.description,
          icon: template.icon, iconColor: template.iconColor, package: file, pictures: picturesOf(template.code),
        });
        writeFileSync(path.join(OUT, `${template.code}.template.json`), `${JSON.stringify(manifest, null, 2)}\n`);
        const s = packed.summary;
        console.log(`${template.name} (${template.code}): built in ${Math.round(buildMs)} ms, packaged in ${Math.round(performance.now() - started - buildMs)} ms; ${s.formCount} forms, ${s.sampleRecordCount} sample records, ${bytes.length} bytes`);
      }
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
