import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { orgQueryRoutes } from './org-query.routes.ts';
import { orgAdminRoutes } from './org-admin.routes.ts';
import { invitationLinkRoutes } from './invitation-link.routes.ts';

/** The organisation: reads for every member (calls.md §7 "Organisation"), changes for Administrators. */
export function orgRoutes(app: TypedApp, deps: { db: Db }): void {
  orgQueryRoutes(app, deps);
  orgAdminRoutes(app, deps);
  invitationLinkRoutes(app, deps);
}
