import { useQuery } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import type { FileRef } from '@tritium/shared/controls/values';
import { apiClient } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { addBreadcrumb } from '../../../lib/breadcrumbs.ts';
import { reportError } from '../../../lib/error-log.ts';
import { t } from '../../../lib/i18n.ts';
import { getEngineCode, getToken } from '../../../lib/session.ts';

// Files of the form runtime (docs/decisions/0008): the scene's policy, the raw-body upload, signed links.

export type UploadScene = contracts.FileScene;
export type UploadPolicy = contracts.UploadPolicyResult;
type FileDto = contracts.FileDto;
type FileUrls = contracts.FileUrlsResult;

export const MB = 1024 * 1024;

const policies = new Map<UploadScene, Promise<UploadPolicy>>();

/** The scene's upload rule (cap, accepted types, compression); asked once per scene and page. */
export function getUploadPolicy(scene: UploadScene): Promise<UploadPolicy> {
  let policy = policies.get(scene);
  if (!policy) {
    policy = apiClient.get<UploadPolicy>('/v1/file/policy/upload', { query: { scene } });
    // A failed answer is not remembered: the next upload asks again.
    policy.catch(() => policies.delete(scene));
    policies.set(scene, policy);
  }
  return policy;
}

/** Forgets the remembered policies (tests). */
export function clearUploadPolicies(): void {
  policies.clear();
}

interface Envelope {
  successful?: boolean;
  data?: unknown;
  errorCode?: number | string;
  errorMessage?: string;
  detail?: unknown;
  requestId?: string;
}

/**
 * Uploads one file: the body is its raw bytes, the name and scene ride in the query (apiClient sends JSON only,
 * so this call builds its own request with the same token and EngineCode headers). Answers the value a file
 * control stores.
 */
export async function uploadFile(file: Blob & { name: string }, scene: UploadScene): Promise<FileRef> {
  const policy = await getUploadPolicy(scene);
  // The policy's address may carry a query of its own (the scene): the name joins it.
  const target = new URL(policy.uploadUrl || '/v1/file/upload', window.location.origin);
  target.searchParams.set('scene', scene);
  target.searchParams.set('fileName', file.name);
  const url = `${target.pathname}${target.search}`;
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' };
  const token = getToken();
  const engineCode = getEngineCode();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (engineCode) headers.EngineCode = engineCode;
  addBreadcrumb(`POST ${url}`);

  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: file, credentials: 'include' });
  } catch {
    throw new ApiError({
      errorCode: 'network.error',
      errorMessage: t('errors.network.message'),
      errorType: 'SYS',
      errorTitle: t('errors.network.title'),
      status: 0,
      requestUrl: url,
    });
  }
  let body: Envelope | undefined;
  try {
    body = (await response.json()) as Envelope;
  } catch {
    body = undefined;
  }
  if (response.ok && body?.successful) {
    const dto = body.data as FileDto;
    return { id: dto.fileId, name: dto.name, size: dto.size, contentType: dto.contentType };
  }
  const error = new ApiError({
    errorCode: body?.errorCode ?? response.status,
    errorMessage: body?.errorMessage ?? t('errors.unknown'),
    errorType: response.status >= 500 ? 'SYS' : 'BIZ',
    errorTitle: t('errors.bizTitle'),
    detail: body?.detail,
    status: response.status,
    requestId: body?.requestId,
    requestUrl: url,
  });
  reportError(error);
  throw error;
}

/** The per-file cap in bytes: the scene's and the control's maxUploadSize (MB), whichever is smaller. */
export function uploadCapBytes(sceneMaxMb: number, controlMaxMb: unknown): number {
  const controlMb = typeof controlMaxMb === 'number' && controlMaxMb > 0 ? controlMaxMb : Infinity;
  return Math.min(sceneMaxMb, controlMb) * MB;
}

export const fileKeys = {
  urls: (fileIds: readonly string[]) => ['files', 'urls', [...fileIds].sort().join(',')] as const,
};

// Links are signed for 10 minutes (docs/decisions/0008); refresh a little before they expire.
const URL_STALE_MS = 8 * 60 * 1000;

/** Signed download links of the files, by file id; an empty map until they arrive. */
export function useFileUrls(fileIds: readonly string[]): Record<string, string> {
  const query = useQuery({
    queryKey: fileKeys.urls(fileIds),
    queryFn: () => apiClient.post<FileUrls>('/v1/file/urls/byfileids', { fileIds: [...fileIds] }, { disableBizError: true }),
    enabled: fileIds.length > 0,
    staleTime: URL_STALE_MS,
    refetchInterval: URL_STALE_MS,
  });
  return Object.fromEntries((query.data?.list ?? []).map((item) => [item.fileId, item.url]));
}

/** "1.2 MB", "340 KB", "12 B". */
export function formatFileSize(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
