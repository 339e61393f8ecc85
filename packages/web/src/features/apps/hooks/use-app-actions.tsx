import { useCallback, useState } from 'react';
import { App as AntApp } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { appKeys, appsApi, type AppDto, type AppListResult, type FeatureListResult, type FunctionNodeDto } from '../api/apps-api.ts';
import { CopyProgressDialog } from '../components/copy-progress-dialog.tsx';
import { MoveNodeDialog } from '../components/move-node-dialog.tsx';
import { NodeDialog, type NodeDialogValues } from '../components/node-dialog.tsx';
import { nodeTypeKey } from '../node-types.ts';
import { placeNode } from '../tree-order.ts';
import { useRefreshApps, type AppTree } from './use-apps.ts';

type Dialog =
  | { kind: 'create'; nodeType: number; appCode?: string; tree?: AppTree; parentCode?: string }
  | { kind: 'edit'; node: FunctionNodeDto }
  | { kind: 'move'; node: FunctionNodeDto; tree: AppTree };

interface Callbacks {
  /** A new app or node was made, or an app was copied: the page may open it. */
  onCreated?: (node: FunctionNodeDto) => void;
  /** A node (or app) is gone: the page leaves it if it was open. */
  onRemoved?: (node: FunctionNodeDto) => void;
}

/**
 * Everything an administrator does to apps and nodes from the workbench, with its dialogs: 新建, 编辑, 复制 (a
 * background job with a progress bar), 删除 (asks first, says what goes), 移动到, and the drops of drag and drop.
 */
export function useAppActions({ onCreated, onRemoved }: Callbacks = {}) {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const refresh = useRefreshApps();
  const [dialog, setDialog] = useState<Dialog>();
  const [copying, setCopying] = useState<{ actionId: string; appName: string }>();
  const close = () => setDialog(undefined);

  const createApp = () => setDialog({ kind: 'create', nodeType: FunctionNodeType.AppPackage });
  const createNode = (nodeType: number, tree: AppTree, parentCode?: string) =>
    setDialog({ kind: 'create', nodeType, appCode: tree.app?.code, tree, parentCode });
  const edit = (node: FunctionNodeDto) => setDialog({ kind: 'edit', node });
  const move = (node: FunctionNodeDto, tree: AppTree) => setDialog({ kind: 'move', node, tree });

  const remove = (node: FunctionNodeDto) => {
    const isApp = node.nodeType === FunctionNodeType.AppPackage;
    const isGroup = node.nodeType === FunctionNodeType.GroupModule;
    modal.confirm({
      title: t('apps.remove.title', { type: t(nodeTypeKey(node.nodeType)), name: node.displayName }),
      content: t(isApp ? 'apps.remove.appContent' : isGroup ? 'apps.remove.groupContent' : 'apps.remove.nodeContent'),
      okText: t('apps.remove.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        const { removed } = await appsApi.remove(node.code);
        void message.success(t('apps.remove.done', { name: node.displayName, count: removed }));
        onRemoved?.(node);
        await refresh();
      },
    });
  };

  const copy = async (app: FunctionNodeDto) => {
    const check = await appsApi.checkCopy(app.code);
    if (!check.allowed) {
      void message.error(check.errorMessage ?? t('apps.copy.notAllowed'));
      return;
    }
    const { actionId } = await appsApi.copy(app.code);
    setCopying({ actionId, appName: app.displayName });
  };
  const copyDone = useCallback(
    (newApp: AppDto) => {
      void refresh();
      onCreated?.(newApp);
    },
    [refresh, onCreated],
  );

  /** Apps dragged in the app list: Administrators only (the order is the engine's). */
  const sortApp = async (code: string, preCode: string) => {
    queryClient.setQueryData<AppListResult>(appKeys.list, (old) => old && { list: placeNode(old.list, code, null, preCode).sort((a, b) => a.sortKey - b.sortKey) });
    try {
      await appsApi.sort({ code, preCode });
    } finally {
      await queryClient.invalidateQueries({ queryKey: appKeys.list });
    }
  };

  /** A node dropped in an app's tree: a reorder among siblings, or a move to another parent (checked first). */
  const dropNode = async (node: FunctionNodeDto, parentCode: string, preCode: string) => {
    const sameParent = node.parentCode === parentCode;
    if (!sameParent) {
      const check = await appsApi.checkMove({ code: node.code, parentCode, preCode });
      if (!check.allowed) {
        void message.error(check.errorMessage ?? t('apps.move.notAllowed'));
        return;
      }
    }
    queryClient.setQueryData<FeatureListResult>(appKeys.features(node.appCode), (old) => old && { ...old, list: placeNode(old.list, node.code, parentCode, preCode) });
    try {
      if (sameParent) await appsApi.sort({ code: node.code, preCode });
      else {
        await appsApi.move({ code: node.code, parentCode, preCode });
        void message.success(t('apps.move.done', { name: node.displayName }));
      }
    } finally {
      await refresh();
    }
  };

  const submitCreate = async (current: Extract<Dialog, { kind: 'create' }>, values: NodeDialogValues) => {
    const isApp = current.nodeType === FunctionNodeType.AppPackage;
    const created = await appsApi.create({
      nodeType: current.nodeType as never,
      displayName: values.displayName,
      code: values.code,
      ...(isApp ? { icon: values.icon, iconColor: values.iconColor } : { appCode: current.appCode, parentCode: values.parentCode ?? current.parentCode ?? current.appCode }),
      ...(values.url ? { url: values.url } : {}),
    });
    void message.success(t('apps.created', { name: created.displayName }));
    await refresh();
    onCreated?.(created);
  };

  const submitEdit = async (node: FunctionNodeDto, values: NodeDialogValues) => {
    const isApp = node.nodeType === FunctionNodeType.AppPackage;
    await appsApi.update({
      code: node.code,
      displayName: values.displayName,
      ...(isApp ? { icon: values.icon, iconColor: values.iconColor } : {}),
      ...(values.url ? { url: values.url } : {}),
    });
    void message.success(t('apps.saved'));
    await refresh();
  };

  const toggleState = async (node: FunctionNodeDto) => {
    const state = node.state === 'Disabled' ? 'Normal' : 'Disabled';
    await appsApi.update({ code: node.code, state });
    void message.success(t(state === 'Disabled' ? 'apps.stateChanged.disabled' : 'apps.stateChanged.enabled', { name: node.displayName }));
    await refresh();
  };

  const parentsOf = (tree?: AppTree) =>
    tree?.app ? [tree.app, ...tree.roots.filter((node) => node.nodeType === FunctionNodeType.GroupModule)] : undefined;

  const dialogs = (
    <>
      <NodeDialog
        open={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        nodeType={dialog?.kind === 'create' ? dialog.nodeType : dialog?.kind === 'edit' ? dialog.node.nodeType : FunctionNodeType.AppPackage}
        node={dialog?.kind === 'edit' ? dialog.node : undefined}
        parents={dialog?.kind === 'create' ? parentsOf(dialog.tree) : undefined}
        defaultParent={dialog?.kind === 'create' ? dialog.parentCode : undefined}
        onClose={close}
        onSubmit={(values) =>
          dialog?.kind === 'create' ? submitCreate(dialog, values) : dialog?.kind === 'edit' ? submitEdit(dialog.node, values) : Promise.resolve()
        }
      />
      <MoveNodeDialog
        open={dialog?.kind === 'move'}
        node={dialog?.kind === 'move' ? dialog.node : undefined}
        parents={dialog?.kind === 'move' ? parentsOf(dialog.tree) : undefined}
        onClose={close}
        onSubmit={(parentCode) => (dialog?.kind === 'move' ? dropNode(dialog.node, parentCode, lastChildOf(dialog.tree, parentCode)) : Promise.resolve())}
      />
      <CopyProgressDialog
        actionId={copying?.actionId}
        appName={copying?.appName ?? ''}
        onRetry={(actionId) => appsApi.retryCopy(actionId)}
        onDone={copyDone}
        onClose={() => setCopying(undefined)}
      />
    </>
  );

  return { createApp, createNode, edit, move, toggleState, remove, copy, sortApp, dropNode, dialogs };
}

/** A node moved by the dialog goes last in its new parent. */
function lastChildOf(tree: AppTree, parentCode: string): string {
  const siblings = parentCode === tree.app?.code ? tree.roots : (tree.roots.find((node) => node.code === parentCode)?.children ?? []);
  return siblings.at(-1)?.code ?? '';
}
