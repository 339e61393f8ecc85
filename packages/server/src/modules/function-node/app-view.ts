import type { contracts } from '@tritium/shared';
import { DEFAULT_SCHEMA_NODE_TYPES, FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { DefaultSchemaCandidate, NodeRow } from './function-node.repo.ts';
import { canAdministerApp, canOpen, isAdministrator, strongest, type NodeViewer, type Permission } from './function-node.policy.ts';

/** Grants of one viewer, strongest per node code. */
export type GrantMap = Map<string, Permission>;

/**
 * One app as one viewer sees it: every node's effective permission (its own grants and those of the group and
 * app above it), which nodes are visible (opened directly, or on the way to a visible node), and the tree.
 */
export class AppView {
  readonly app: NodeRow;
  readonly isAdmin: boolean;
  private readonly byCode = new Map<string, NodeRow>();
  private readonly childrenOf = new Map<string, NodeRow[]>();
  private readonly permission = new Map<string, Permission>();
  private readonly visible = new Set<string>();

  constructor(app: NodeRow, nodes: NodeRow[], viewer: NodeViewer, grants: GrantMap) {
    this.app = app;
    this.byCode.set(app.code, app);
    for (const n of nodes) this.byCode.set(n.code, n);
    for (const n of nodes) {
      const parent = n.parent_code && this.byCode.has(n.parent_code) ? n.parent_code : app.code;
      const list = this.childrenOf.get(parent) ?? [];
      list.push(n);
      this.childrenOf.set(parent, list);
    }
    for (const list of this.childrenOf.values()) list.sort(siblingOrder);
    const admin = isAdministrator(viewer);
    const walk = (node: NodeRow, inherited: Permission): boolean => {
      const own = admin ? 'administrator' : strongest(inherited, grants.get(node.code) ?? 'none');
      let anyChildVisible = false;
      for (const child of this.childrenOf.get(node.code) ?? []) anyChildVisible = walk(child, own) || anyChildVisible;
      const isVisible = canOpen(viewer, own) || anyChildVisible;
      // A container shown only on the way to something visible is opened with access.
      this.permission.set(node.code, isVisible ? strongest(own, 'access') : own);
      if (isVisible) this.visible.add(node.code);
      return isVisible;
    };
    walk(app, 'none');
    this.isAdmin = canAdministerApp(viewer, admin ? 'administrator' : (grants.get(app.code) ?? 'none'));
  }

  get isVisible(): boolean {
    return this.visible.has(this.app.code);
  }

  node(code: string): NodeRow | undefined {
    return this.visible.has(code) ? this.byCode.get(code) : undefined;
  }

  permissionOf(code: string): Permission {
    return this.visible.has(code) ? this.permission.get(code)! : 'none';
  }

  /** Visible children in order. */
  children(code: string): NodeRow[] {
    return (this.childrenOf.get(code) ?? []).filter((n) => this.visible.has(n.code));
  }

  /** Every visible node below the app, parents before children. */
  flatten(code = this.app.code): NodeRow[] {
    return this.children(code).flatMap((n) => [n, ...this.flatten(n.code)]);
  }

  /** Every node below `code`, visible or not (what a removal takes with it). */
  descendantCount(code: string): number {
    return (this.childrenOf.get(code) ?? []).reduce((sum, n) => sum + 1 + this.descendantCount(n.code), 0);
  }

  /**
   * domain.md §4: the default schema is the first child, or the first child of the first group, among form,
   * workflow, dashboard, report, singleton and custom-link nodes. Children are read in order; a group yields its
   * first such child; disabled nodes are skipped.
   */
  defaultSchemaCode(): string | null {
    const eligible = (n: NodeRow) => n.state !== 'Disabled' && (DEFAULT_SCHEMA_NODE_TYPES as readonly number[]).includes(n.node_type);
    for (const child of this.children(this.app.code)) {
      if (child.state === 'Disabled') continue;
      if (eligible(child)) return child.code;
      if (child.node_type === FunctionNodeType.GroupModule) {
        const first = this.children(child.code).find(eligible);
        if (first) return first.code;
      }
    }
    return null;
  }

  present(node: NodeRow, extra: { hasChild?: boolean } = {}): contracts.FunctionNodeDto {
    return presentNode(node, this.permissionOf(node.code), extra);
  }

  tree(code = this.app.code): contracts.FunctionNodeDto[] {
    return this.children(code).map((n) => {
      const dto = this.present(n);
      return n.node_type === FunctionNodeType.GroupModule ? { ...dto, children: this.tree(n.code) } : dto;
    });
  }

  presentApp(withChildren: boolean): contracts.AppDto {
    return { ...this.present(this.app), children: withChildren ? this.tree() : [], defaultSchemaCode: this.defaultSchemaCode(), isAdmin: this.isAdmin };
  }
}

/** Siblings' order: sort key, then code. */
export function siblingOrder(a: { sort_key: number; code: string }, b: { sort_key: number; code: string }): number {
  return a.sort_key - b.sort_key || a.code.localeCompare(b.code);
}

/**
 * The viewer's permission on an app of which they see every node, known without reading the nodes: Administrators,
 * and whoever holds at least access on the app itself (it flows down to every node). Such an app shows as an
 * AppView would show it. undefined when only grants inside the app could show it (that takes an AppView).
 */
export function wholeAppPermission(viewer: NodeViewer, grants: GrantMap, appCode: string): Permission | undefined {
  if (isAdministrator(viewer)) return 'administrator';
  const own = grants.get(appCode) ?? 'none';
  return canOpen(viewer, own) ? own : undefined;
}

/**
 * AppView.defaultSchemaCode for apps seen whole, from defaultSchemaCandidates (the SQL walk): per app, the first
 * candidate in siblings' order and, for a group, its first child in that order. Apps without a candidate have none.
 */
export function defaultSchemaCodes(candidates: DefaultSchemaCandidate[]): Map<string, string> {
  const childOf = (c: DefaultSchemaCandidate) => ({ code: c.child_code ?? '', sort_key: c.child_sort_key ?? 0 });
  const first = new Map<string, DefaultSchemaCandidate>();
  for (const c of candidates) {
    const current = first.get(c.app_code);
    const earlier = !current || siblingOrder(c, current) < 0 || (c.code === current.code && siblingOrder(childOf(c), childOf(current)) < 0);
    if (earlier) first.set(c.app_code, c);
  }
  return new Map([...first].map(([app, c]) => [app, c.node_type === FunctionNodeType.GroupModule ? c.child_code! : c.code]));
}

/** An app of the app list without children, for a viewer who sees it whole (wholeAppPermission). */
export function presentWholeApp(app: NodeRow, viewer: NodeViewer, permission: Permission, defaultSchemaCode: string | null): contracts.AppDto {
  return { ...presentNode(app, permission), children: [], defaultSchemaCode, isAdmin: canAdministerApp(viewer, permission) };
}

/** calls.md §3 fields, plus state, url, sortKey and the caller's permission. */
export function presentNode(n: NodeRow, permission: Permission, extra: { hasChild?: boolean } = {}): contracts.FunctionNodeDto {
  return {
    code: n.code,
    objectId: n.object_id,
    parentCode: n.parent_code,
    appCode: n.app_code,
    displayName: n.display_name,
    icon: n.icon,
    iconColor: n.icon_color,
    nodeType: n.node_type,
    summary: n.summary,
    appState: n.app_state,
    source: n.source,
    state: n.state as contracts.FunctionNodeDto['state'],
    url: n.url,
    sortKey: n.sort_key,
    permission,
    ...extra,
  };
}
