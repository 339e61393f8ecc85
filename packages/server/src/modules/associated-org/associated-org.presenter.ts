import type { contracts } from '@tritium/shared';
import { ENTRY_BASE_PATH, EntryRoute } from '@tritium/shared/constants/entry-routes';
import type { AssociationListRow } from './associated-org.repo.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The link a host sends to its partner: the /ass-org page with the code (calls.md §2 and the associatedCode parameter). */
export function associationLink(code: string): string {
  return `/${ENTRY_BASE_PATH}${EntryRoute.AssOrg}?associatedCode=${encodeURIComponent(code)}`;
}

/** An association as `engineCode`'s administrator sees it: the code and the bound department are the host's only. */
export function presentAssociation(row: AssociationListRow, engineCode: string, now: Date): contracts.AssociatedOrgDto {
  const isHost = row.host_engine_code === engineCode;
  const isPending = row.state === 'pending';
  return {
    id: row.id,
    side: isHost ? 'host' : 'partner',
    state: row.state,
    isExpired: isPending && new Date(row.code_expires).getTime() <= now.getTime(),
    hostEngineCode: row.host_engine_code,
    hostEngineName: row.host_engine_name,
    partnerEngineCode: row.partner_engine_code,
    partnerEngineName: row.partner_engine_name,
    associatedCode: isHost && isPending ? row.associated_code : null,
    link: isHost && isPending ? associationLink(row.associated_code) : null,
    expiresTime: iso(row.code_expires)!,
    departmentId: isHost ? row.department_id : null,
    memberCount: row.member_count,
    createdTime: iso(row.created_time)!,
    acceptedTime: iso(row.accepted_time),
    endedTime: iso(row.ended_time),
  };
}
