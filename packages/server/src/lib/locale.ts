import type { FastifyRequest } from 'fastify';
import type { Locale } from '@tritium/shared';

// The language of an answer's messages (docs/decisions/0028): the request's Accept-Language, which the web client
// sets to the language chosen in its language switch. zh-CN unless English comes before Chinese.

/** The first of zh / en in an Accept-Language header, by weight; zh-CN when neither is named. */
export function localeOfHeader(header: string | undefined): Locale {
  if (!header) return 'zh-CN';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.map((r) => /^\s*q=([\d.]+)\s*$/.exec(r)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en-US';
  }
  return 'zh-CN';
}

export function localeOf(request: FastifyRequest): Locale {
  const value = request.headers['accept-language'];
  return localeOfHeader(Array.isArray(value) ? value[0] : value);
}
