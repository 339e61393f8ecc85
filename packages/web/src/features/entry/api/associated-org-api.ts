import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// The partner's side of an association (docs/decisions/0091): /entry/ass-org and /entry/make-org.

export type AssociatedCodeInfo = z.infer<typeof contracts.AssociatedCodeInfo>;
export type AssociatedOrgDto = contracts.AssociatedOrgDto;
export type MakeOrgResult = z.infer<typeof contracts.MakeOrgResult>;

// The pages show business errors themselves (an unusable link is the page's answer, not a pop-up).
const pageCall = { disableBizError: true };

export const associatedOrgEntryApi = {
  codeInfo: (associatedCode: string) => apiClient.get<AssociatedCodeInfo>('/v1/org/associated/code', { ...pageCall, query: { associatedCode } }),
  accept: (body: { associatedCode: string; engineCode: string }) => apiClient.post<AssociatedOrgDto>('/v1/org/associated/accept', body, pageCall),
  makeOrg: (body: { associatedCode: string; engineName: string }) => apiClient.post<MakeOrgResult>('/v1/org/associated/make-org', body, pageCall),
};
