// File types and names on the way in and out (docs/decisions/0008).

const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp', svg: 'image/svg+xml',
  pdf: 'application/pdf', txt: 'text/plain', csv: 'text/csv', json: 'application/json', zip: 'application/zip',
  xls: 'application/vnd.ms-excel', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ppt: 'application/vnd.ms-powerpoint', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mp3: 'audio/mpeg', mp4: 'video/mp4', mov: 'video/quicktime',
};

export const OCTET_STREAM = 'application/octet-stream';

/** The last path segment of a name a browser sent (some send `C:\fakepath\a.png`). */
export function baseName(name: string): string {
  return name.split(/[\\/]/).pop()!.trim();
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The type to store: the one the client named, else the extension's, else the request's Content-Type. */
export function resolveContentType(fileName: string, named: string | undefined, header: string | undefined): string {
  if (named) return named;
  const byName = BY_EXTENSION[extensionOf(fileName)];
  if (byName) return byName;
  const sent = header?.split(';')[0].trim().toLowerCase();
  return sent && sent !== OCTET_STREAM && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(sent) ? sent : OCTET_STREAM;
}

/** Whether a file matches an HTML-style accept list (`*\/*`, `image/*`, `image/png`, `.xlsx`). */
export function isAccepted(accept: readonly string[], fileName: string, contentType: string): boolean {
  const extension = `.${extensionOf(fileName)}`;
  return accept.some((rule) => {
    if (rule === '*/*') return true;
    if (rule.startsWith('.')) return rule === extension;
    if (rule.endsWith('/*')) return contentType.startsWith(rule.slice(0, -1));
    return rule === contentType;
  });
}

/** Raster images a browser may show inline; everything else downloads (no SVG or HTML rendered from our origin). */
const INLINE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp']);

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / RFC 5987). */
export function contentDisposition(name: string, contentType: string, forceDownload: boolean): string {
  const kind = !forceDownload && INLINE.has(contentType) ? 'inline' : 'attachment';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Whether the stored type may be sent as is; other types travel as octet-stream. */
export function servedContentType(contentType: string): string {
  return INLINE.has(contentType) || !/^(text\/html|image\/svg|application\/xhtml|text\/xml|application\/xml)/.test(contentType) ? contentType : OCTET_STREAM;
}
