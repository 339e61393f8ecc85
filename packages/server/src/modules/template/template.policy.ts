import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { canAdministerApp, canCreateApp, isAdministrator, type NodeViewer, type Permission } from '../function-node/function-node.policy.ts';
import type { TemplateRow } from './template.repo.ts';

// Who may do what with templates (docs/decisions/0131). Small named predicates; the services call them.

/**
 * The platform's operators: the accounts listed (JSON array of account ids) in platform.settings under this name. The
 * platform has no operator role of its own and no operator screens (every route is an engine's, docs/decisions/0127):
 * whoever runs the installation sets it, e.g. `insert into platform.settings values ('platform_operators', '["<id>"]')`.
 */
export const PLATFORM_OPERATORS_SETTING = 'platform_operators';

export async function isPlatformOperator(db: Db, accountId: string | null): Promise<boolean> {
  if (!accountId) return false;
  const row = await db.selectFrom('platform.settings').select('value').where('name', '=', PLATFORM_OPERATORS_SETTING).executeTakeFirst();
  if (!row) return false;
  try {
    const ids: unknown = JSON.parse(row.value);
    return Array.isArray(ids) && ids.includes(accountId);
  } catch {
    return false;
  }
}

/** Publishing or sharing an app: whoever administers it (Administrators; an AppCreator or SubAdministrator holding administrator on it). */
export const canPublishApp = (viewer: NodeViewer, appPermission: Permission): boolean => canAdministerApp(viewer, appPermission);

export function assertCanPublishApp(viewer: NodeViewer, appPermission: Permission): void {
  if (!canPublishApp(viewer, appPermission)) throw new AppError('TemplatePublishForbidden');
}

/** Installing makes a new app: those who may create apps (Administrators and AppCreators). */
export function assertCanInstall(viewer: NodeViewer): void {
  if (!canCreateApp(viewer)) throw new AppError('TemplateInstallForbidden');
}

/**
 * Removing a template: never a built-in one; a platform template by an operator; an engine template by an
 * Administrator of its publisher engine (or the person who published it).
 */
export function assertCanRemove(viewer: NodeViewer, template: TemplateRow, engineCode: string, isOperator: boolean): void {
  if (template.built_in) throw new AppError('TemplateRemoveForbidden');
  if (template.scope === 'Platform') {
    if (!isOperator) throw new AppError('TemplatePlatformScopeForbidden');
    return;
  }
  const isPublisher = template.publisher_engine === engineCode && (isAdministrator(viewer) || template.published_by === viewer.userId);
  if (!isPublisher) throw new AppError('TemplateRemoveForbidden');
}
