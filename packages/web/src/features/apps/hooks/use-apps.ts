import { useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { appKeys, appsApi, type FunctionNodeDto } from '../api/apps-api.ts';
import { useIsPhone } from '../../../lib/use-is-phone.ts';

/** The apps the person may open, in the engine's order. */
export function useAppList() {
  return useQuery({ queryKey: appKeys.list, queryFn: appsApi.listApps });
}

/** Which apps the person administers, loaded apart from the list (calls.md §6). */
export function useAdminAppCodes() {
  const query = useQuery({ queryKey: appKeys.adminCodes, queryFn: appsApi.adminAppCodes });
  return useMemo(() => {
    const codes = new Set(query.data?.codes ?? []);
    const isAdministrator = query.data?.isAdministrator ?? false;
    return { isAdministrator, administers: (appCode: string) => isAdministrator || codes.has(appCode) };
  }, [query.data]);
}

export interface AppTree {
  app: FunctionNodeDto | undefined;
  /** The app's direct children in order; groups carry their modules in `children`. */
  roots: TreeNode[];
  byCode: Map<string, FunctionNodeDto>;
  defaultSchemaCode: string | null;
}
export type TreeNode = FunctionNodeDto & { children: FunctionNodeDto[] };

const bySortKey = (a: FunctionNodeDto, b: FunctionNodeDto) => a.sortKey - b.sortKey;

/** Builds an app's tree from feature/list's flat answer (parents before children). */
export function buildAppTree(app: FunctionNodeDto | undefined, appCode: string, list: FunctionNodeDto[], defaultSchemaCode: string | null): AppTree {
  const byCode = new Map(list.map((node) => [node.code, node]));
  if (app) byCode.set(app.code, app);
  const childrenOf = (parent: string) => list.filter((node) => node.parentCode === parent).sort(bySortKey);
  const roots = childrenOf(appCode).map((node) => ({
    ...node,
    children: node.nodeType === FunctionNodeType.GroupModule ? childrenOf(node.code) : [],
  }));
  return { app, roots, byCode, defaultSchemaCode };
}

/** The tree without the forms switched off on this device; the default schema moves to the first node left. */
export function withoutHidden(tree: AppTree, hidden: ReadonlySet<string>): AppTree {
  if (!hidden.size) return tree;
  const roots = tree.roots.filter((node) => !hidden.has(node.code)).map((node) => ({ ...node, children: node.children.filter((child) => !hidden.has(child.code)) }));
  const first = roots.flatMap((node) => (node.nodeType === FunctionNodeType.GroupModule ? node.children : [node]))[0];
  const defaultSchemaCode = tree.defaultSchemaCode && !hidden.has(tree.defaultSchemaCode) ? tree.defaultSchemaCode : (first?.code ?? null);
  return { ...tree, roots, defaultSchemaCode };
}

/**
 * One app's function tree (the nodes this person may open); the app itself comes from the app list. Forms switched
 * off on this device are left out, but for those who administer the app (they design them).
 */
export function useAppTree(appCode: string | undefined) {
  const apps = useAppList();
  const app = apps.data?.list.find((candidate) => candidate.code === appCode);
  const device = useIsPhone() ? 'mobile' : 'pc';
  const { administers } = useAdminAppCodes();
  const query = useQuery({
    queryKey: appKeys.features(appCode ?? ''),
    queryFn: () => appsApi.features(appCode!),
    enabled: !!appCode,
  });
  const hidden = useQuery({ queryKey: appKeys.hidden(device), queryFn: () => appsApi.hiddenForms(device) });
  const keepAll = !!appCode && administers(appCode);
  const tree = useMemo(() => {
    if (!query.data || !appCode || !app) return undefined;
    const whole = buildAppTree(app, appCode, query.data.list, query.data.defaultSchemaCode);
    return keepAll ? whole : withoutHidden(whole, new Set(hidden.data?.codes ?? []));
  }, [query.data, appCode, app, keepAll, hidden.data]);
  return { ...query, tree };
}

/** After a write to apps or nodes: every list, tree and the recent activity reload. */
export function useRefreshApps() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: appKeys.all });
}
