import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';
import { getEngineCode, getToken } from '../../lib/session.ts';

// Face check (issue 44, docs/decisions/0123 "Face check"): the form's face-recognition control compares a photo with
// the person's stored one; administrators keep the stored photos on a member's details.

export type FaceCheckResult = contracts.FaceCheckResult;
export type FacePhotoDto = contracts.FacePhotoDto;

export const faceCheckKeys = {
  status: ['faceCheck', 'status'] as const,
  record: (schemaCode: string, objectId: string, controlCode: string) => ['faceCheck', 'record', schemaCode, objectId, controlCode] as const,
  photo: (userId: string) => ['faceCheck', 'photo', userId] as const,
};

const base = '/v1/facecheck';

export const faceCheckApi = {
  compare: (body: contracts.FaceCompareBody) => apiClient.post<FaceCheckResult>(`${base}/compare`, body, { disableBizError: true }),
  status: () => apiClient.get<contracts.FaceStatusResult>(`${base}/status`),
  record: (query: { schemaCode: string; objectId: string; controlCode: string }) => apiClient.get<contracts.FaceRecordResult>(`${base}/record`, { query }),
  photo: (userId: string) => apiClient.get<FacePhotoDto>(`${base}/photo`, { query: { userId } }),
  setPhoto: (userId: string, fileId: string) => apiClient.post<FacePhotoDto>(`${base}/photo/set`, { userId, fileId }),
  removePhoto: (userId: string) => apiClient.post<FacePhotoDto>(`${base}/photo/remove`, { userId }),
};

/**
 * Uploads a reference photo through the files module (POST /v1/file/upload, raw body) and answers its file id. The
 * form runtime's uploader is not used here: the organisation page does not depend on the form runtime.
 */
export async function uploadFacePhoto(file: File): Promise<string> {
  const query = new URLSearchParams({ scene: 'image', fileName: file.name });
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' };
  const token = getToken();
  const engineCode = getEngineCode();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (engineCode) headers.EngineCode = engineCode;
  const response = await fetch(`/v1/file/upload?${query.toString()}`, { method: 'POST', headers, body: file, credentials: 'include' });
  const body = (await response.json().catch(() => undefined)) as { successful?: boolean; data?: { fileId: string }; errorMessage?: string } | undefined;
  if (!response.ok || !body?.successful || !body.data) throw new Error(body?.errorMessage ?? `HTTP ${response.status}`);
  return body.data.fileId;
}
