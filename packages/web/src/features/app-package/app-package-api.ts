import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';
import { downloadSigned, sessionHeaders } from '../../lib/signed-download.ts';

// App packages' calls (/v1/app-package/*; docs/decisions/0130): export an app to a file, upload a file, what it holds,
// install it as a background job with progress.

export type PackageStored = { packageId: string; summary: contracts.PackageSummary; problems: contracts.PackageProblem[] };
export type PackageInfo = { packageId: string; summary: contracts.PackageSummary; roles: { name: string; matched: string | null }[]; departments: { name: string; matched: string | null }[] };
export type InstallProgress = contracts.AppPackageInstallProgress;

const P = '/v1/app-package';
const PACKAGE_TYPE = 'application/gzip';

export const appPackageKeys = {
  check: (appCode: string) => ['app-package', 'check', appCode] as const,
  info: (packageId: string) => ['app-package', 'info', packageId] as const,
  progress: (actionId: string) => ['app-package', 'progress', actionId] as const,
};

export const appPackageApi = {
  check: (appCode: string) => apiClient.post<{ problems: contracts.PackageProblem[] }>(`${P}/check`, { appCode }),
  export: (appCode: string, sampleData: boolean) => apiClient.post<PackageStored>(`${P}/export`, { appCode, sampleData }, { disableBizError: true }),
  download: (packageId: string, name: string) => downloadSigned(`${P}/download?packageId=${encodeURIComponent(packageId)}`, { method: 'GET' }, `${name}.tritium-app.tar.gz`, PACKAGE_TYPE),
  /** The file's bytes as the body (no multipart); the server checks it whole before keeping it. */
  async upload(file: Blob): Promise<PackageStored> {
    const res = await fetch(`${P}/upload`, { method: 'POST', body: file, headers: { ...sessionHeaders(), 'Content-Type': PACKAGE_TYPE }, credentials: 'include' });
    const answer = (await res.json().catch(() => ({}))) as { successful?: boolean; data?: PackageStored; errorMessage?: string };
    if (!answer.successful || !answer.data) throw new Error(answer.errorMessage ?? `upload ${res.status}`);
    return answer.data;
  },
  info: (packageId: string) => apiClient.post<PackageInfo>(`${P}/info`, { packageId }),
  install: (body: { packageId: string; sampleData: boolean; formMapping?: Record<string, string> }) => apiClient.post<{ actionId: string }>(`${P}/install`, body, { disableBizError: true }),
  progress: (actionId: string) => apiClient.get<InstallProgress>(`${P}/install/progress`, { query: { actionId }, disableBizError: true }),
  cancel: (actionId: string) => apiClient.post<InstallProgress>(`${P}/install/cancel`, { actionId }),
  retry: (actionId: string) => apiClient.post<InstallProgress>(`${P}/install/retry`, { actionId }),
};
