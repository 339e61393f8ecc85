import { contracts } from '@tritium/shared';
import { Automation } from '@tritium/shared/automation/index';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { createNode } from '../function-node/function-node.service.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { remapSchemaCodes } from '../function-node/code-remap.ts';
import { loadDesign, publishDesign, saveDesign } from '../form-design/form-design.service.ts';
import { saveCustomIndex } from '../form-design/custom-index.service.ts';
import { saveViews } from '../view/view-settings.service.ts';
import { publishTemplate, saveTemplate } from '../workflow/workflow.service.ts';
import { saveBoard } from '../report/board.service.ts';
import { saveRules } from '../business-rules/business-rules.service.ts';
import { saveAutomation } from '../automation/automation.service.ts';
import { saveTemplate as savePrintTemplate } from '../print/print-templates.service.ts';
import { savePermissionGroup } from '../permission/permission.service.ts';
import { saveCode } from '../custom-code/custom-code.service.ts';
import { formCodesIn } from './package-export.ts';
import type { PackageContent } from './package-format.ts';

// Creating a package's app through the designers' own services (docs/decisions/0130), each checking as it does for a
// person: nodes (createNode), forms (load → save → rules → publish), custom indexes, views, flows (save → publish),
// permission groups, print templates, automations, scripts, custom APIs, dashboards. Every code the package names
// is remapped to the new codes first. The app node is hidden meanwhile (the caller's job); its rows become visible
// only with the job's final publish.

export interface InstallRun {
  ctx: NodeContext;
  content: PackageContent;
  appCode: string;
  /** Package code → new code (the app, its nodes, and the installer's choices for forms outside the app). */
  codes: Map<string, string>;
  /** Role or department name → unit id (matched by name, or the installer's choice). */
  units: { roles: Map<string, string>; departments: Map<string, string> };
  /** Names that matched nothing (left for the administrator), reported with the result. */
  unmatched: Set<string>;
  progress(percent: number, message: string): Promise<void>;
}

const remap = <T>(run: InstallRun, value: T): T => remapSchemaCodes(value, run.codes) as T;

/** The app's nodes, parents first, in their order. */
async function createNodes(run: InstallRun): Promise<void> {
  const { pkg } = run.content;
  const ordered = [...pkg.nodes].sort((a, b) => Number(a.parentCode !== pkg.app.code) - Number(b.parentCode !== pkg.app.code) || a.sortKey - b.sortKey);
  for (const n of ordered) {
    const parent = n.parentCode === pkg.app.code || n.parentCode === null ? undefined : run.codes.get(n.parentCode);
    const node = await createNode(run.ctx, {
      appCode: run.appCode,
      ...(parent ? { parentCode: parent } : {}),
      displayName: n.name,
      nodeType: n.nodeType as contracts.CreateNodeBody['nodeType'],
      icon: n.icon,
      iconColor: n.iconColor,
      summary: n.summary,
      ...(n.url ? { url: n.url } : {}),
    });
    run.codes.set(n.code, node.code);
  }
}

/** A definition less its controls that name other forms (so forms referring to each other can first be published). */
function withoutReferences(definition: contracts.FormDefinition): contracts.FormDefinition | null {
  const controls = definition.controls.filter((c) => formCodesIn(c).size === 0);
  return controls.length === definition.controls.length ? null : { ...definition, controls };
}

async function publish(run: InstallRun, schemaCode: string, definition: contracts.FormDefinition, rules?: unknown[]): Promise<void> {
  const loaded = await loadDesign(run.ctx, schemaCode);
  const saved = await saveDesign(run.ctx, { schemaCode, baseVersion: loaded.draft.version, definition });
  if (rules) await saveRules(run.ctx, { schemaCode, rules: rules as never });
  await publishDesign(run.ctx, { schemaCode, version: saved.version, confirm: [], dryRun: false });
}

/**
 * The forms in the order their references allow (a form after the forms of the app it refers to), and those that
 * refer to themselves or round a loop: they cannot wait for each other.
 */
export function referenceOrder<T extends { code: string; definition: unknown }>(
  forms: T[],
  referencesOf: (definition: unknown) => Set<string> = formCodesIn,
): { ordered: T[]; cyclic: Set<string> } {
  const byCode = new Map(forms.map((f) => [f.code, f]));
  const ordered: T[] = [];
  const cyclic = new Set<string>();
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (f: T, path: string[]) => {
    if (state.get(f.code) === 'done') return;
    if (state.get(f.code) === 'visiting') {
      for (const c of path.slice(path.indexOf(f.code))) cyclic.add(c);
      return;
    }
    state.set(f.code, 'visiting');
    for (const c of referencesOf(f.definition)) {
      const target = byCode.get(c);
      if (target) visit(target, [...path, f.code]);
    }
    state.set(f.code, 'done');
    ordered.push(f);
  };
  for (const f of forms) visit(f, []);
  return { ordered, cyclic };
}

/**
 * Publishes every form, those it refers to first. Forms referring to themselves or round a loop are first published
 * without those controls (when that alone publishes); then each is published whole, in rounds until none is left.
 */
async function publishForms(run: InstallRun, from: number, to: number): Promise<void> {
  const { ordered: forms, cyclic } = referenceOrder(run.content.pkg.forms);
  const defs = new Map(forms.map((f) => [f.code, remap(run, f.definition)]));
  for (const f of forms) {
    const partial = cyclic.has(f.code) ? withoutReferences(defs.get(f.code)!) : null;
    if (partial) await publish(run, run.codes.get(f.code)!, partial).catch(() => undefined);
  }
  let pending = [...forms];
  let done = 0;
  while (pending.length) {
    const failed: typeof pending = [];
    let lastError: unknown;
    for (const f of pending) {
      try {
        await publish(run, run.codes.get(f.code)!, defs.get(f.code)!, f.rules.length ? remap(run, f.rules) : undefined);
        done++;
        await run.progress(from + ((to - from) * done) / forms.length, `发布表单 ${done}/${forms.length}`);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        failed.push(f);
        lastError = error;
      }
    }
    if (failed.length === pending.length) throw lastError;
    pending = failed;
  }
}

function membersOf(run: InstallRun, g: contracts.AppPackage['forms'][number]['permissionGroups'][number]) {
  const pick = (names: string[], byName: Map<string, string>) =>
    names.flatMap((name) => {
      const id = byName.get(name);
      if (!id) run.unmatched.add(name);
      return id ? [id] : [];
    });
  return { users: [], roles: pick(g.roles, run.units.roles), departments: pick(g.departments, run.units.departments) };
}

/**
 * A flow's participant sources naming roles, departments or people by id: each id becomes this engine's unit of the
 * same name (roles and departments; people are the organisation's own and are not matched); what matches nothing is
 * left out and reported, and a source left without ids goes (its node then follows its rule for nobody found).
 */
function remapUnits<T>(run: InstallRun, value: T): T {
  const byId = new Map(run.content.pkg.units.map((u) => [u.id, u]));
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk).filter((x) => x !== DROP);
    if (!v || typeof v !== 'object') return v;
    const o = v as { type?: unknown; ids?: unknown };
    if ((o.type === 'roles' || o.type === 'departments' || o.type === 'users') && Array.isArray(o.ids)) {
      const ids = o.ids.flatMap((id) => {
        const unit = byId.get(String(id));
        const found = unit && unit.kind !== 'user' ? (unit.kind === 'role' ? run.units.roles : run.units.departments).get(unit.name) : undefined;
        if (!found) run.unmatched.add(unit?.name ?? String(id));
        return found ? [found] : [];
      });
      return ids.length ? { ...o, ids } : DROP;
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  return walk(value) as T;
}
const DROP = Symbol('drop');

/** Everything of one form besides its definition. */
async function formParts(run: InstallRun, form: contracts.AppPackage['forms'][number]): Promise<void> {
  const { ctx } = run;
  const schemaCode = run.codes.get(form.code)!;
  for (const fields of form.customIndexes) await saveCustomIndex(ctx, { schemaCode, fields });
  if (form.views.length) await saveViews(ctx, { schemaCode, views: form.views.map((v) => contracts.ViewSetting.parse(remap(run, v))) }, new Date());
  if (form.workflow) {
    await saveTemplate(ctx, { schemaCode, template: remapUnits(run, remap(run, form.workflow)) });
    await publishTemplate(ctx, { schemaCode });
  }
  for (const g of form.permissionGroups) {
    await savePermissionGroup(ctx, { schemaCode, group: { name: g.name, members: membersOf(run, g), actions: g.actions, viewScope: g.viewScope, editScope: g.editScope, fieldRights: g.fieldRights } });
  }
  for (const p of form.printTemplates) await savePrintTemplate(ctx, { schemaCode, name: p.name, isDefault: p.isDefault, layout: remap(run, p.layout) });
  for (const x of form.excelTemplates) {
    const workbook = run.content.files.get(x.sha256)!;
    await engineOf(ctx).insertInto('print_excel_templates').values({ id: newId(), schema_code: schemaCode, name: x.name, workbook, created_by: ctx.userId }).execute();
  }
  for (const a of form.automations) {
    const model = Automation.parse(remap(run, { ...a.definition, name: a.name, enabled: a.enabled, runAs: a.runAs }));
    await saveAutomation(ctx, { schemaCode, automation: model });
  }
  for (const s of form.scripts) await saveCode(ctx, { appCode: run.appCode, schemaCode, part: s.part, language: s.language, source: s.source, baseVersion: 0 }, new Date());
}

/** Creates the whole app (its node already written, hidden); progress from 5 to 70 %. */
export async function installContent(run: InstallRun): Promise<void> {
  const { pkg } = run.content;
  await run.progress(5, '创建应用结构');
  await createNodes(run);
  await publishForms(run, 10, 40);
  let i = 0;
  for (const form of pkg.forms) {
    await formParts(run, form);
    await run.progress(40 + (20 * ++i) / Math.max(1, pkg.forms.length), `设置表单 ${i}/${pkg.forms.length}`);
  }
  for (const s of pkg.appApis) await saveCode(run.ctx, { appCode: run.appCode, part: s.part, language: s.language, source: s.source, baseVersion: 0 }, new Date());
  for (const b of pkg.boards) {
    const code = run.codes.get(b.code);
    if (code) await saveBoard(run.ctx, { code, definition: remap(run, b.definition) });
  }
  await run.progress(70, '应用结构已创建');
}

export const isBoardNode = (type: number) => type === FunctionNodeType.DashBoardModule || type === FunctionNodeType.ReportModule;
