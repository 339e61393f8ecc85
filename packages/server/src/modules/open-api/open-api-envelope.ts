import type { FastifyRequest } from 'fastify';
import type { AppError } from '../../lib/app-error.ts';

// The product's answer envelope and header reading, shared by Invoke and the attachment calls (docs/decisions/0021).

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/** The product's envelope (h3yun-facts §1.3); ErrorCode is ours, from the catalogue, for callers that want it. */
export function envelope(data: Record<string, unknown> | null, error?: { code: number; message: string }, logined = true) {
  return { Successful: !error, ErrorMessage: error?.message ?? null, ErrorCode: error?.code ?? 0, Logined: logined, ReturnData: data, DataType: 0 };
}

/** An error as the caller reads it: the catalogue message and, for parameter problems, where they are. */
export function describe(error: AppError): string {
  const issues = (error.detail as { issues?: { path: string; message: string }[] } | undefined)?.issues;
  if (!issues?.length || error.errorName === 'BizObjectDuplicate') return error.message;
  return `${error.message}：${issues.slice(0, 20).map((i) => `${i.path} ${i.message}`).join('；')}`;
}

