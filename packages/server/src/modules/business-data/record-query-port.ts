import type { contracts } from '@tritium/shared';
import type { FilterNode } from '@tritium/shared/query/index';
import type { NodeContext } from '../function-node/node-context.ts';

// The port through which business data reads another form's records with the caller's access (associations and
// data links: docs/decisions/0016) from the query engine, which stands above business data (it presents records
// with business data's presenter). The app registers query's queryRecords at start (docs/decisions/0026).

/** What associations and data links ask of the query engine. */
export interface RecordQuery {
  schemaCode: string;
  filter?: FilterNode;
  status?: number[];
  sort?: { field: string; direction: 'asc' | 'desc' }[];
  pageIndex: number;
  pageSize: number;
}

export type QueryRecords = (ctx: NodeContext, body: RecordQuery) => Promise<contracts.BizQueryResult>;

let query: QueryRecords | undefined;

export function setRecordQuery(next: QueryRecords): void {
  query = next;
}

/** The registered query; without it an association would offer nothing silently, so it refuses instead. */
export const queryRecords: QueryRecords = (ctx, body) => {
  if (!query) throw new Error('record query not registered: call setRecordQuery(queryRecords) (query) at start');
  return query(ctx, body);
};
