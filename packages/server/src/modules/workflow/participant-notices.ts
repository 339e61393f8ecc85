import type { WorkflowTemplate } from '@tritium/shared/workflow/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { getNodeOrThrow, viewerOf } from '../function-node/node-context.ts';
import { resolveSources } from './participants.ts';

// What publishing a flow tells its administrator about its people (docs/decisions/0111): a participant named on a node
// (by person, role or department) who may not open the form's node still handles their to-dos — a participant reads
// the records of their flows — but sees no form in the workbench and can start nothing. The administrator is told who,
// so that leaving them out is a choice. Participants found at run time (the originator, their managers, a field) are
// not known at publish time and are not listed.

const FIXED_SOURCES = new Set(['users', 'roles', 'departments']);
/** People checked per publish: enough for any hand-made flow, bounded for a department of thousands. */
const MAX_CHECKED = 200;

export interface ParticipantNotice {
  activityCode: string;
  activityName: string;
  userIds: string[];
  userNames: string[];
}

export async function participantNotices(edb: EngineExecutor, template: WorkflowTemplate, schemaCode: string): Promise<ParticipantNotice[]> {
  const named = new Map<string, string[]>();
  for (const a of template.activities) {
    if (!('participants' in a)) continue;
    const sources = a.participants.sources.filter((s) => FIXED_SOURCES.has(s.type));
    if (sources.length) named.set(a.code, [...new Set(await resolveSources(edb, sources, { originator: '', values: {} }))]);
  }
  const everyone = [...new Set([...named.values()].flat())].slice(0, MAX_CHECKED);
  if (!everyone.length) return [];
  const users = await edb.selectFrom('org_users').select(['id', 'name', 'auth_type']).where('id', 'in', everyone).where('state', '=', 'active').execute();
  const shut = new Map<string, string>();
  for (const u of users) if (!(await opens(edb, u.id, u.auth_type, schemaCode))) shut.set(u.id, u.name);
  return template.activities.flatMap((a) => {
    const ids = (named.get(a.code) ?? []).filter((id) => shut.has(id));
    return ids.length ? [{ activityCode: a.code, activityName: a.name, userIds: ids, userNames: ids.map((id) => shut.get(id)!) }] : [];
  });
}

async function opens(edb: EngineExecutor, userId: string, authType: number, schemaCode: string): Promise<boolean> {
  try {
    await getNodeOrThrow(edb, await viewerOf(edb, { userId, authType }), schemaCode);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.errorName === 'FunctionNodeNotFound') return false;
    throw error;
  }
}
