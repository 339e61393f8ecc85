import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';
import type { NodeViewer } from '../function-node/function-node.policy.ts';
import type { PublishedForm } from '../request-context/context.ts';
import { findFormSchema, formTablesAndTwinsOf } from './form-design.repo.ts';

// Form design owns the published definition, so this reader sits here, on top of the request context's cache.
// The one way the runtime reads a form's published definition and tables (docs/decisions/0032): from the app's cache
// while the engine's 'forms' version is the one the request read. Keyed by the node's object id too, so a form
// removed and created again under the same code is never answered from the old one.

async function load(edb: EngineExecutor, schemaCode: string): Promise<PublishedForm | undefined> {
  const row = await findFormSchema(edb, schemaCode);
  if (!row?.published || row.published_version === null) return undefined;
  return { definition: row.published, version: row.published_version, ...(await formTablesAndTwinsOf(edb, schemaCode)) };
}

/** The published form of a node; undefined before its first publish. Callers must not change what they are given. */
export async function publishedFormOf(edb: EngineExecutor, viewer: NodeViewer, node: Pick<NodeRow, 'code' | 'object_id'>): Promise<PublishedForm | undefined> {
  const snapshot = viewer.context;
  if (!snapshot || snapshot.changing || (edb.isTransaction && !viewer.cachedInTransaction)) return load(edb, node.code);
  return snapshot.caches.forms.get(snapshot.engineCode, snapshot.formsVersion, `${node.code}:${node.object_id}`, () => load(edb, node.code));
}
