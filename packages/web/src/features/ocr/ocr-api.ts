import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// OCR on the machine and recognition templates (issue 45, docs/decisions/0125): the OCR control reads a picture with
// its template and fills the form; the designer picks the template and which form field each template field fills.

export const ocrKeys = {
  status: ['ocr', 'status'] as const,
  templates: ['ocr', 'templates'] as const,
};

const TEMPLATE = '/v1/toolkit/ai/recognition/template';

export const ocrApi = {
  status: () => apiClient.get<contracts.OcrStatusDto>('/v1/plugin/ocr/status'),
  fill: (body: contracts.OcrFormFillBody) => apiClient.post<contracts.OcrFormFillResult>('/v1/plugin/ocr/form/fill', body, { timeoutMs: 180_000, disableBizError: true }),
  templates: () => apiClient.get<contracts.RecognitionTemplateList>(`${TEMPLATE}/list`),
};

export const templateApi = {
  create: (body: contracts.RecognitionTemplateCreateBody) => apiClient.post<contracts.RecognitionTemplateDto>(`${TEMPLATE}/create`, body),
  update: (body: contracts.RecognitionTemplateUpdateBody) => apiClient.post<contracts.RecognitionTemplateDto>(`${TEMPLATE}/update`, body),
  remove: (templateCode: string) => apiClient.post<null>(`${TEMPLATE}/delete`, { templateCode }),
};
