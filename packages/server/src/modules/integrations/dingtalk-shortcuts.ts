import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from './provider-settings.ts';
import { chatScanCallbackPath } from './chat-scan.ts';

// DingTalk shortcuts (issue 25, docs/decisions/0060): the Administrator's entries for the organisation's DingTalk
// workplace. Each names an app or form of the engine; its address is this site's DingTalk page with the engine and
// the app or form to open after DingTalk's free login, which the Administrator copies into DingTalk's workplace.

type Shortcut = contracts.DingtalkShortcut;

async function nodeOf(edb: EngineExecutor, code: string) {
  return edb.selectFrom('function_nodes').select(['code', 'app_code', 'display_name']).where('code', '=', code).executeTakeFirst();
}

async function requireNode(edb: EngineExecutor, code: string) {
  const node = await nodeOf(edb, code);
  if (!node) throw new AppError('FunctionNodeNotFound', { detail: { nodeCode: code } });
  return node;
}

/** The address DingTalk opens: the site's DingTalk page, which signs in by free login, then opens the app or form. */
function shortcutUrl(siteUrl: string, engineCode: string, node: { code: string; app_code: string } | undefined, nodeCode: string): string {
  const url = new URL(chatScanCallbackPath('dingtalk'), siteUrl);
  url.searchParams.set('engineCode', engineCode);
  const path = !node ? '/workbench' : node.code === node.app_code ? `/workbench/app/${node.code}` : `/workbench/app/${node.app_code}/${node.code}`;
  url.searchParams.set('redirectUrl', path);
  url.searchParams.set('shortcut', nodeCode);
  return url.toString();
}

export async function listShortcuts(edb: EngineExecutor, engineCode: string, siteUrl: string): Promise<{ list: Shortcut[] }> {
  const rows = await edb
    .selectFrom('dingtalk_shortcuts as s')
    .leftJoin('function_nodes as n', 'n.code', 's.node_code')
    .select(['s.id', 's.name', 's.node_code', 's.created_time', 'n.code', 'n.app_code', 'n.display_name'])
    .orderBy('s.created_time')
    .orderBy('s.id')
    .execute();
  return {
    list: rows.map((r) => {
      const node = r.code && r.app_code ? { code: r.code, app_code: r.app_code } : undefined;
      return {
        id: r.id,
        name: r.name,
        nodeCode: r.node_code,
        nodeName: r.display_name ?? '',
        appCode: r.app_code ?? '',
        url: shortcutUrl(siteUrl, engineCode, node, r.node_code),
        createdTime: new Date(r.created_time).toISOString(),
      };
    }),
  };
}

export async function createShortcut(edb: EngineExecutor, userId: string, body: { name: string; nodeCode: string }): Promise<{ id: string }> {
  await requireNode(edb, body.nodeCode);
  const count = await edb.selectFrom('dingtalk_shortcuts').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(count.n) >= contracts.SHORTCUTS_PER_ENGINE) throw new AppError('ShortcutLimitReached');
  const id = newId();
  await edb.insertInto('dingtalk_shortcuts').values({ id, name: body.name, node_code: body.nodeCode, created_by: userId }).execute();
  return { id };
}

export async function updateShortcut(edb: EngineExecutor, body: { id: string; name: string; nodeCode: string }): Promise<void> {
  await requireNode(edb, body.nodeCode);
  const updated = await edb.updateTable('dingtalk_shortcuts').set({ name: body.name, node_code: body.nodeCode, modified_time: new Date() }).where('id', '=', body.id).executeTakeFirst();
  if (!updated.numUpdatedRows) throw new AppError('NotFound', { detail: { id: body.id } });
}

export async function removeShortcut(edb: EngineExecutor, id: string): Promise<void> {
  const removed = await edb.deleteFrom('dingtalk_shortcuts').where('id', '=', id).executeTakeFirst();
  if (!removed.numDeletedRows) throw new AppError('NotFound', { detail: { id } });
}
