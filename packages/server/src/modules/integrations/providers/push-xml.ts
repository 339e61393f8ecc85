import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';

// The XML of WeChat's and WeCom's pushes (<xml><ToUserName/>…</xml>): the root's fields as text, nothing evaluated
// (no entities, no attributes, values kept as written).

// The parser is made the first time a push comes (a server without a chat platform never loads the library).
let xml: XMLParser | undefined;
const parser = (): XMLParser => {
  const { XMLParser: Parser } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
  return (xml ??= new Parser({ parseTagValue: false, processEntities: false, ignoreDeclaration: true, ignoreAttributes: true }));
};

/** The fields of an XML message's root (<xml>…</xml>); null when it is not one. */
export function xmlFields(text: string): Record<string, unknown> | null {
  try {
    const root = (parser().parse(text) as { xml?: unknown }).xml;
    return root && typeof root === 'object' ? (root as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A field's text, trimmed; '' when it is missing or not text. */
export const textOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');
