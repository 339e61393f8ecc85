import { z } from 'zod';

// Full-text search (calls.md "Search": GET /v1/toolkit/fulltext/search (keyword, pageIndex, pageSize), GET
// /v1/fulltextsearch/nodes (keyword), the legacy GET /GlobalSearch/SearchByKey). The spec names the calls and their
// query parameters, not the answers: docs/decisions/0040-full-text-search.md chooses them.

/** The shortest keyword searched: trigram indexes need two characters to narrow anything (350001 below it). */
export const SEARCH_KEYWORD_MIN = 2;
/** The longest keyword: a search box, not a document. */
export const SEARCH_KEYWORD_MAX = 100;
/** Page size bounds of the record search ("search page size is supplied by the caller", calls.md §9; our cap). */
export const SEARCH_PAGE_SIZE_MAX = 50;
export const SEARCH_PAGE_SIZE_DEFAULT = 20;
/** Pages beyond this are refused: a search is read from the top, deep pages only cost the database. */
export const SEARCH_PAGE_INDEX_MAX = 100;
/** Nodes answered at most by the node search. */
export const SEARCH_NODE_LIMIT = 20;

/** The keyword as typed; trimmed. Too short is a business error (350001), not a 777, so the box can say why. */
const Keyword = z.string().trim().max(SEARCH_KEYWORD_MAX, `关键字最多${SEARCH_KEYWORD_MAX}个字符`);

export const FulltextSearchQuery = z.strictObject({
  keyword: Keyword,
  /** From 0. */
  pageIndex: z.coerce.number().int().min(0).max(SEARCH_PAGE_INDEX_MAX).default(0),
  pageSize: z.coerce.number().int().min(1).max(SEARCH_PAGE_SIZE_MAX, `每页最多${SEARCH_PAGE_SIZE_MAX}条`).default(SEARCH_PAGE_SIZE_DEFAULT),
});
export type FulltextSearchQuery = z.infer<typeof FulltextSearchQuery>;

export const NodeSearchQuery = z.strictObject({ keyword: Keyword });
export type NodeSearchQuery = z.infer<typeof NodeSearchQuery>;

/** A matched part of a snippet: UTF-16 offsets into `text` (the client marks them; no markup travels). */
export const SearchHighlight = z.object({ start: z.number().int(), length: z.number().int() });

/** A short piece of the matched text around the match, plain text with the matches as offsets. */
export const SearchSnippet = z.object({ text: z.string(), highlights: z.array(SearchHighlight) });
export type SearchSnippet = z.infer<typeof SearchSnippet>;

/** One record found. */
export const RecordSearchHit = z.object({
  objectId: z.string(),
  /** The record's data title (Name). */
  title: z.string(),
  seqNo: z.string().nullable(),
  /** The field the keyword was found in (the title first): its code and display name. */
  fieldCode: z.string(),
  fieldName: z.string(),
  snippet: SearchSnippet,
  /** ISO-8601. */
  createdTime: z.string().nullable(),
});
export type RecordSearchHit = z.infer<typeof RecordSearchHit>;

/** The hits of one form, with its app. Groups come in the order of their best hit. */
export const RecordSearchGroup = z.object({
  appCode: z.string(),
  appName: z.string(),
  schemaCode: z.string(),
  formName: z.string(),
  nodeType: z.number().int(),
  hits: z.array(RecordSearchHit),
});
export type RecordSearchGroup = z.infer<typeof RecordSearchGroup>;

/** A page of hits (title matches first, then newer records), grouped by app and form. */
export const FulltextSearchResult = z.object({
  list: z.array(RecordSearchGroup),
  pageIndex: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type FulltextSearchResult = z.infer<typeof FulltextSearchResult>;

/** A function node (app, group, form, report…) the caller may open whose name holds the keyword. */
export const NodeSearchHit = z.object({
  code: z.string(),
  appCode: z.string(),
  appName: z.string(),
  displayName: z.string(),
  nodeType: z.number().int(),
  icon: z.string(),
  iconColor: z.string(),
  highlights: z.array(SearchHighlight),
});
export type NodeSearchHit = z.infer<typeof NodeSearchHit>;

export const NodeSearchResult = z.object({ list: z.array(NodeSearchHit) });
export type NodeSearchResult = z.infer<typeof NodeSearchResult>;

/** The legacy call answers both, in the same envelope. */
export const GlobalSearchQuery = z.strictObject({ keyword: Keyword });
export const GlobalSearchResult = z.object({ nodes: z.array(NodeSearchHit), records: FulltextSearchResult });
export type GlobalSearchResult = z.infer<typeof GlobalSearchResult>;
