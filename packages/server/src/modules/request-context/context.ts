import type { NodeRow } from '../../db/types.ts';
import type { FunctionNodeAuthorization as Permission } from '@tritium/shared/constants/org';
import { VersionedCache } from './versioned-cache.ts';

// What one request knows of its caller and engine after its context statement (docs/decisions/0032).

/** The published part of a form the runtime reads: its definition, version and physical tables. */
export interface PublishedForm {
  definition: unknown;
  version: number;
  /** grid key ('' for the main table) → table name */
  tables: Map<string, string>;
  /** The main table's columns that have a lowered twin (form-design/trigram-indexes.ts, decision 0103). */
  folded: readonly string[];
  /** The main table's system id columns are uuid (decision 0128); false for a table the storage job has not converted. */
  uuidIds: boolean;
}

export type GrantRow = { node_code: string; app_code: string; permission: Permission };

/** One app's caches; two apps (two server processes) never share them. */
export class ContextCaches {
  /** 'nodes' version: nodes by code, apps by code, each app's nodes, grants by unit list. */
  readonly nodes = new VersionedCache<NodeRow | undefined | NodeRow[] | GrantRow[]>();
  /** 'forms' version: published forms by schema code and node object id. */
  readonly forms = new VersionedCache<PublishedForm | undefined>();
  /** 'forms' version too: each form's permission groups (docs/decisions/0037), as the permission module reads them. */
  readonly permissionGroups = new VersionedCache<unknown[]>();
  /** 'forms' version too (the automations table bumps it): each form's enabled record-event automations (docs/decisions/0041). */
  readonly automations = new VersionedCache<unknown[]>();
  /** 'forms' version too (written at publish): the rollups of other forms that read each form (form_dependencies). */
  readonly dependants = new VersionedCache<unknown[]>();
  /** 'forms' version too (publishing rules bumps it): each form's published business rules. */
  readonly rules = new VersionedCache<unknown[]>();

  clear(): void {
    this.nodes.clear();
    this.forms.clear();
    this.permissionGroups.clear();
    this.automations.clear();
    this.dependants.clear();
    this.rules.clear();
  }
}

/**
 * The caller in one engine as the context statement read it, with the versions its caches are checked against.
 * Bound to one user: a context built for another person (a flow's originator) does not carry it.
 */
export interface ContextSnapshot {
  engineCode: string;
  userId: string;
  authType: number;
  roleIds: string[];
  /** The user's main department as the context statement read it; undefined when not read (work outside a request). */
  mainDepartmentId?: string | null;
  nodesVersion: number;
  formsVersion: number;
  caches: ContextCaches;
  /**
   * Set once the request changes nodes or forms itself: its versions are older than its own change, so what it reads
   * afterwards comes from the tables (a create that answers the node it made, a publish that reads the form back).
   */
  changing?: boolean;
}

/** Called before a request changes what the caches hold (node and form transactions). */
export function markChanging(context: ContextSnapshot | undefined): void {
  if (context) context.changing = true;
}
