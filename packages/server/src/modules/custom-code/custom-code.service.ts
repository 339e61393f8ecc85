import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, inEngineTransaction, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getFormNodeOrThrow } from '../form-design/form-access.ts';
import { markChanging } from '../request-context/context.ts';
import { recordOperation } from '../audit/oplog.ts';
import { administeredOwnerOrThrow, assertMayCheck, assertPartOf, type AdministeredOwner } from './custom-code.policy.ts';
import { findSource, findVersion, listParts, listVersions, lockPart, writeVersion, type CodeOwner } from './custom-code.repo.ts';
import { compileScript } from './custom-code-compile.ts';
import { checkScript } from './custom-code-check.ts';
import { STARTER_TEMPLATES } from './custom-code-templates.ts';

// The code editor's calls (docs/decisions/0118): load, save (versioned, refused when someone saved meanwhile),
// check, versions, one version, roll back (a new version holding an old source), and the form runtime's browser script.

const PART_NAMES: Record<contracts.CustomCodePart, string> = { 'form-server': '后端代码', 'form-browser': '前端代码', 'app-api': '自定义接口' };

const ownerOf = (o: AdministeredOwner, part: string): CodeOwner => ({ appCode: o.app.code, schemaCode: o.form?.code ?? null, part });
const iso = (value: Date | string) => new Date(value).toISOString();

export async function loadCode(ctx: NodeContext, body: contracts.CodeLoadBody): Promise<contracts.CodeLoadResult> {
  const edb = engineOf(ctx);
  const owner = await administeredOwnerOrThrow(edb, ctx, body);
  const saved = new Map((await listParts(edb, owner.app.code, owner.form?.code ?? null)).map((row) => [row.part, row]));
  const parts: contracts.CustomCodePart[] = owner.form ? ['form-server', 'form-browser'] : ['app-api'];
  return {
    appCode: owner.app.code,
    appName: owner.app.display_name,
    schemaCode: owner.form?.code ?? null,
    formName: owner.form?.display_name ?? null,
    canEdit: true,
    parts: parts.map((part) => {
      const row = saved.get(part);
      if (!row) return { part, language: 'ts', source: STARTER_TEMPLATES[part], version: 0, authorId: null, authorName: null, updatedTime: null };
      return { part, language: row.language as contracts.CustomCodeLanguage, source: row.source, version: row.version, authorId: row.updated_by, authorName: row.author_name, updatedTime: iso(row.updated_at) };
    }),
  };
}

interface Change {
  language: contracts.CustomCodeLanguage;
  source: string;
  /** The version the editor started from; undefined for a roll back (decided under the lock). */
  baseVersion?: number;
  rolledBackFrom?: number;
}

/** Writes a new version of a part under its row lock; the operation log records it in the same transaction. */
async function writeChange(ctx: NodeContext, owner: AdministeredOwner, part: contracts.CustomCodePart, change: Change, now: Date): Promise<contracts.CodeSaveResult> {
  // Browser scripts keep their compiled JavaScript; every part must compile to be saved.
  const compiled = await compileScript(change.language, change.source);
  const target = ownerOf(owner, part);
  markChanging(ctx.context);
  return inEngineTransaction(ctx, async (edb) => {
    const current = await lockPart(edb, target);
    const currentVersion = current?.version ?? 0;
    if (change.baseVersion !== undefined && change.baseVersion !== currentVersion) throw new AppError('CodeVersionConflict', { detail: { currentVersion, baseVersion: change.baseVersion } });
    const version = currentVersion + 1;
    try {
      await writeVersion(edb, target, { language: change.language, source: change.source, compiled: part === 'form-browser' ? compiled : null, version, author: ctx.userId, at: now });
    } catch (error) {
      // Two first saves at once: the second meets the first's row.
      if ((error as { code?: string }).code === '23505') throw new AppError('CodeVersionConflict', { detail: { currentVersion: version, baseVersion: change.baseVersion ?? currentVersion } });
      throw error;
    }
    await recordOperation(edb, ctx, {
      kind: 'form',
      action: 'update',
      objectId: owner.form?.code ?? owner.app.code,
      objectName: `${owner.form?.display_name ?? owner.app.display_name} · ${PART_NAMES[part]}`,
      before: current ? { version: currentVersion, language: current.language, size: Buffer.byteLength(current.source) } : null,
      after: { version, language: change.language, size: Buffer.byteLength(change.source), ...(change.rolledBackFrom ? { rolledBackFrom: change.rolledBackFrom } : {}) },
    });
    return { version, updatedTime: now.toISOString() };
  });
}

export async function saveCode(ctx: NodeContext, body: contracts.CodeSaveBody, now: Date): Promise<contracts.CodeSaveResult> {
  const owner = await administeredOwnerOrThrow(engineOf(ctx), ctx, body);
  assertPartOf(owner, body.part);
  return writeChange(ctx, owner, body.part, { language: body.language, source: body.source, baseVersion: body.baseVersion }, now);
}

export async function checkCode(ctx: NodeContext, body: contracts.CodeCheckBody): Promise<contracts.CodeCheckResult> {
  await assertMayCheck(engineOf(ctx), ctx, body);
  return { diagnostics: await checkScript(body.part, body.language, body.source) };
}

export async function codeVersions(ctx: NodeContext, body: contracts.CodeVersionsBody): Promise<contracts.CodeVersionsResult> {
  const edb = engineOf(ctx);
  const owner = await administeredOwnerOrThrow(edb, ctx, body);
  assertPartOf(owner, body.part);
  const rows = await listVersions(edb, ownerOf(owner, body.part));
  return {
    list: rows.map((r) => ({ version: r.version, language: r.language as contracts.CustomCodeLanguage, authorId: r.author, authorName: r.author_name, createdTime: iso(r.created_at), size: Number(r.size) })),
  };
}

export async function codeVersion(ctx: NodeContext, body: contracts.CodeVersionBody): Promise<contracts.CodeVersionResult> {
  const edb = engineOf(ctx);
  const owner = await administeredOwnerOrThrow(edb, ctx, body);
  assertPartOf(owner, body.part);
  const row = await findVersion(edb, ownerOf(owner, body.part), body.version);
  if (!row) throw new AppError('CodeVersionNotFound', { detail: { version: body.version } });
  return { version: row.version, language: row.language as contracts.CustomCodeLanguage, source: row.source, authorId: row.author, authorName: row.author_name, createdTime: iso(row.created_at), size: Number(row.size) };
}

/** A roll back saves the old source as a new version: the history keeps every step. */
export async function rollbackCode(ctx: NodeContext, body: contracts.CodeVersionBody, now: Date): Promise<contracts.CodeSaveResult> {
  const edb = engineOf(ctx);
  const owner = await administeredOwnerOrThrow(edb, ctx, body);
  assertPartOf(owner, body.part);
  const old = await findVersion(edb, ownerOf(owner, body.part), body.version);
  if (!old) throw new AppError('CodeVersionNotFound', { detail: { version: body.version } });
  return writeChange(ctx, owner, body.part, { language: old.language as contracts.CustomCodeLanguage, source: old.source, rolledBackFrom: body.version }, now);
}

/** The form's compiled browser script, for anyone who may open the form (the form runtime's rule). */
export async function runtimeScript(ctx: NodeContext, schemaCode: string): Promise<contracts.CodeRuntimeResult> {
  const edb = engineOf(ctx);
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), schemaCode, 'open');
  const row = await findSource(edb, { appCode: node.app_code, schemaCode: node.code, part: 'form-browser' });
  return { script: row?.compiled ? { js: row.compiled, version: row.version } : null };
}
