import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';
import { sessionHeaders } from '../../lib/signed-download.ts';

// The template center's calls (/v1/template/*, /v1/share/app/publish; docs/decisions/0131).

export type TemplateDto = contracts.TemplateDto;
export type TemplateInfo = contracts.TemplateInfo;
export type TemplateListResult = contracts.TemplateListResult;
export type TemplateListQuery = contracts.TemplateListQuery;
export type TemplateSource = (typeof contracts.TEMPLATE_SOURCES)[number];
export type InstallProgressResult = contracts.InstallProgressResult;
export type CheckPublishResult = contracts.CheckPublishResult;
export type SampleDataResult = contracts.SampleDataResult;
export type ShareAppResult = contracts.ShareAppResult;

export const templateKeys = {
  all: ['templates'] as const,
  list: (query: TemplateListQuery) => ['templates', 'list', query] as const,
  info: (templateId: string) => ['templates', 'info', templateId] as const,
  install: (actionId: string) => ['templates', 'install', actionId] as const,
  samples: (appCode: string) => ['templates', 'samples', appCode] as const,
  check: (appCode: string, scope: string, name: string) => ['templates', 'check', appCode, scope, name] as const,
};

const T = '/v1/template';

export const templateApi = {
  list: (query: TemplateListQuery) => apiClient.get<TemplateListResult>(`${T}/list`, { query: query as Record<string, string | number> }),
  info: (templateId: string) => apiClient.get<TemplateInfo>(`${T}/info`, { query: { templateId } }),
  checkPublish: (body: contracts.CheckPublishBody) => apiClient.post<CheckPublishResult>(`${T}/checkPublish`, body),
  publish: (body: contracts.PublishTemplateBody) => apiClient.post<{ templateId: string; version: number }>(`${T}/publish`, body, { disableBizError: true }),
  remove: (templateId: string) => apiClient.post<Record<string, never>>(`${T}/remove`, { templateId }),
  install: (body: contracts.InstallTemplateBody) => apiClient.post<{ actionId: string }>(`${T}/install`, body),
  // The dialog shows what went wrong with an install itself.
  progress: (actionId: string) => apiClient.get<InstallProgressResult>(`${T}/install/progress`, { query: { actionId }, disableBizError: true }),
  cancel: (actionId: string) => apiClient.post<unknown>('/v1/app-package/install/cancel', { actionId }),
  retry: (actionId: string) => apiClient.post<unknown>('/v1/app-package/install/retry', { actionId }),
  sampleData: (appCode: string) => apiClient.post<SampleDataResult>(`${T}/checksampledata`, { appCode }),
  clearSampleData: (appCode: string) => apiClient.post<{ removed: number }>(`${T}/clearsampledata`, { appCode }),
  share: (body: contracts.ShareAppBody) => apiClient.post<ShareAppResult>('/v1/share/app/publish', body, { disableBizError: true }),
};

/** A picture of a template as an object URL (the call needs the session's headers, which an <img> cannot send). */
export async function pictureUrl(path: string): Promise<string> {
  const res = await fetch(path, { headers: sessionHeaders(), credentials: 'include' });
  if (!res.ok) throw new Error(`picture ${res.status}`);
  return URL.createObjectURL(await res.blob());
}

/** Uploads an image (scene image) for the template's pictures; answers its file id. */
export async function uploadPicture(file: File): Promise<string> {
  const res = await fetch(`/v1/file/upload?scene=image&fileName=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    credentials: 'include',
    body: file,
    headers: { ...sessionHeaders(), 'Content-Type': 'application/octet-stream', Accept: 'application/json' },
  });
  const body = (await res.json().catch(() => ({}))) as { successful?: boolean; data?: { fileId: string }; errorMessage?: string };
  if (!res.ok || !body.successful || !body.data) throw new Error(body.errorMessage ?? `upload ${res.status}`);
  return body.data.fileId;
}
